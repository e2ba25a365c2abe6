//! The registry's daily protocol matrix: what a probe found when it started each listed agent
//! over ACP, as the registry publishes it (`.protocol-matrix/latest.json` and its dated
//! `snapshots/`).
//!
//! ```json
//! {"probeSchemaVersion": 2, "date": "2026-08-20", "agents": [{"id": "claude-acp",
//!   "registryVersion": "0.70.0", "distribution": "npx", "initialize": {"status": "success"},
//!   "protocolVersion": 1, "agentInfoVersion": "0.70.0", "authMethods": ["terminal"],
//!   "capabilities": {"loadSession": true, "sessionList": true, "setModel": false},
//!   "sessionNew": {"status": "auth_required", "code": -32000, "message": "..."},
//!   "methodProbes": {"session/list": {"status": "success", "code": null, "message": null}}}]}
//! ```
//!
//! **A failed probe means unknown, not unsupported.** The published matrix lists a failed
//! probe's capabilities as all `false`; those placeholders are dropped when reading, and
//! [`ProtocolMatrix::facts`] keeps "never probed", "probe failed" and "probed" apart in
//! [`Facts`], so a page cannot mistake one for another. [`ProtocolMatrix::report`] gives the
//! whole record, and [`ProbeResult::features`] what each capability's advertisement and probe
//! add up to (see [`method`] for the [`Verdict`]s, where "could not be checked without
//! signing in" is its own answer).
//!
//! The model is `model.rs`; `read.rs` reads the published file into it ([`parse_matrix`]),
//! leniently.

pub mod method;
mod model;
mod read;

pub use method::{Feature, MethodProbe, MethodStatus, Verdict};
pub use model::{
    AuthMethod, Capability, Facts, NOT_PROBED, ProbeResult, ProbeStatus, ProtocolMatrix, Report,
};
pub use read::{MatrixError, PROBE_SCHEMA_VERSION, parse_matrix};
