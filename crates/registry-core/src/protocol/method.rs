//! What one probed call returned, and what a page may conclude from it.
//!
//! The published matrix records, per agent, the outcome of `initialize`, of a plain
//! `session/new`, and of one call per optional method (`methodProbes`): a status word
//! (`success`, `auth_required`, `method_not_found`, …), the JSON-RPC error code and message.
//! Beside them, `capabilities` says what the agent *advertised* in its `initialize` answer.
//!
//! A [`Feature`] puts the two together for one capability and gives a [`Verdict`], following the
//! registry's own reading (`probe_indicates_support` in its `protocol_matrix.py`):
//!
//! - an answer, even one refusing the probe's made-up session (`invalid_params`,
//!   `resource_not_found`), means the method exists: [`Verdict::Supported`]; except for
//!   `session/close`, which counts only when it succeeded;
//! - `method_not_found` (or `not_applicable`: not advertised, so not called) means
//!   [`Verdict::NotSupported`];
//! - `auth_required` means the probe, which never signs in, could not tell:
//!   [`Verdict::NeedsSignIn`], which is not "not supported";
//! - anything else (an error, no answer, not probed, a status this catalogue does not know)
//!   decides nothing: the advertisement does ([`Verdict::Advertised`] or
//!   [`Verdict::NotSupported`]), and without one the feature is [`Verdict::Unknown`].
//!
//! Unknown status words are kept as [`MethodStatus::Other`] and shown as written.

use super::Capability;

/// One probed call: its status, and the JSON-RPC error code and message when it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodProbe {
    /// How the call went.
    pub status: MethodStatus,
    /// The JSON-RPC error code (`-32601`), when the matrix gives one.
    pub code: Option<i64>,
    /// The error message as the agent wrote it, when the matrix gives one.
    pub message: Option<String>,
}

/// The status word of a probed call, as the registry's probe writes it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MethodStatus {
    /// `success`: the call answered with a result.
    Success,
    /// `auth_required`: the agent wants a signed-in user first (code `-32000`).
    AuthRequired,
    /// `method_not_found`: the agent does not have this method (code `-32601`).
    MethodNotFound,
    /// `invalid_params`: the method exists but refused the probe's arguments (code `-32602`).
    InvalidParams,
    /// `resource_not_found`: the method exists but did not know the probe's session (`-32002`).
    ResourceNotFound,
    /// `cancelled`: the request was cancelled (code `-32800`).
    Cancelled,
    /// `error`: any other JSON-RPC error.
    Error,
    /// `no_response`: no answer before the probe's timeout.
    NoResponse,
    /// `decode_error`: the agent wrote something that is not JSON-RPC.
    DecodeError,
    /// `process_error`: the agent could not be started, or exited.
    ProcessError,
    /// `invalid_response`: an answer of the wrong shape (probe schema 2, `session/close`).
    InvalidResponse,
    /// `not_applicable`: not called, because the agent did not advertise it.
    NotApplicable,
    /// `not_probed`: not called (an earlier step failed, or there was no session to use).
    NotProbed,
    /// Any other word, kept as written (trimmed).
    Other(String),
}

/// What a page may say about one capability of a probed agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The probe's call was answered: the method exists.
    Supported,
    /// Advertised in `initialize`, and the probe could not confirm it either way (or there is
    /// no call to make, as for `loadSession`).
    Advertised,
    /// The method does not exist, or the agent does not advertise it and the probe could not
    /// reach it.
    NotSupported,
    /// The probe, which never signs in, was asked to sign in first: unknown, not unsupported.
    NeedsSignIn,
    /// Neither advertised nor probed conclusively; the status is kept as given, when there is
    /// one.
    Unknown(Option<MethodStatus>),
}

/// One capability of a probed agent: what it advertised and what the probe's call returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature<'a> {
    /// The capability, or `None` for a probed method this catalogue does not know.
    pub capability: Option<Capability>,
    /// The method the probe called (`session/list`), as the matrix names it; `None` when there
    /// is no call for it (`loadSession`).
    pub method: Option<&'a str>,
    /// What `initialize` advertised: `None` when the matrix does not say.
    pub advertised: Option<bool>,
    /// The probe's call, when the matrix has one.
    pub probe: Option<&'a MethodProbe>,
}

impl MethodStatus {
    /// Reads a status word, trimmed; an unknown word is kept as [`MethodStatus::Other`].
    pub fn parse(word: &str) -> MethodStatus {
        let word = word.trim();
        match word {
            "success" => MethodStatus::Success,
            "auth_required" => MethodStatus::AuthRequired,
            "method_not_found" => MethodStatus::MethodNotFound,
            "invalid_params" => MethodStatus::InvalidParams,
            "resource_not_found" => MethodStatus::ResourceNotFound,
            "cancelled" => MethodStatus::Cancelled,
            "error" => MethodStatus::Error,
            "no_response" => MethodStatus::NoResponse,
            "decode_error" => MethodStatus::DecodeError,
            "process_error" => MethodStatus::ProcessError,
            "invalid_response" => MethodStatus::InvalidResponse,
            "not_applicable" => MethodStatus::NotApplicable,
            "not_probed" => MethodStatus::NotProbed,
            other => MethodStatus::Other(other.to_owned()),
        }
    }

    /// The word as the matrix writes it.
    pub fn as_str(&self) -> &str {
        match self {
            MethodStatus::Success => "success",
            MethodStatus::AuthRequired => "auth_required",
            MethodStatus::MethodNotFound => "method_not_found",
            MethodStatus::InvalidParams => "invalid_params",
            MethodStatus::ResourceNotFound => "resource_not_found",
            MethodStatus::Cancelled => "cancelled",
            MethodStatus::Error => "error",
            MethodStatus::NoResponse => "no_response",
            MethodStatus::DecodeError => "decode_error",
            MethodStatus::ProcessError => "process_error",
            MethodStatus::InvalidResponse => "invalid_response",
            MethodStatus::NotApplicable => "not_applicable",
            MethodStatus::NotProbed => "not_probed",
            MethodStatus::Other(word) => word,
        }
    }

    /// What people read: `answered`, `needs sign-in`, `method not found`, …; an unknown word as
    /// written.
    pub fn label(&self) -> &str {
        match self {
            MethodStatus::Success => "answered",
            MethodStatus::AuthRequired => "needs sign-in",
            MethodStatus::MethodNotFound => "method not found",
            MethodStatus::InvalidParams => "answered (refused the probe's arguments)",
            MethodStatus::ResourceNotFound => "answered (did not know the probe's session)",
            MethodStatus::Cancelled => "cancelled",
            MethodStatus::Error => "error",
            MethodStatus::NoResponse => "no answer in time",
            MethodStatus::DecodeError => "unreadable answer",
            MethodStatus::ProcessError => "could not be started",
            MethodStatus::InvalidResponse => "answer of the wrong shape",
            MethodStatus::NotApplicable => "not called (not advertised)",
            MethodStatus::NotProbed => "not called",
            MethodStatus::Other(word) => word,
        }
    }
}

impl Verdict {
    /// The word for tables and tests: `supported`, `advertised`, `not-supported`,
    /// `needs-sign-in`, `unknown`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Advertised => "advertised",
            Verdict::NotSupported => "not-supported",
            Verdict::NeedsSignIn => "needs-sign-in",
            Verdict::Unknown(_) => "unknown",
        }
    }

    /// What people read: `supported`, `advertised, not confirmed by the probe`, `not supported`,
    /// `could not be checked without signing in`, or `unknown` with the status as given.
    pub fn label(&self) -> String {
        match self {
            Verdict::Supported => "supported".to_owned(),
            Verdict::Advertised => "advertised, not confirmed by the probe".to_owned(),
            Verdict::NotSupported => "not supported".to_owned(),
            Verdict::NeedsSignIn => "could not be checked without signing in".to_owned(),
            Verdict::Unknown(None) => "unknown".to_owned(),
            Verdict::Unknown(Some(status)) => {
                format!("unknown (the probe got: {})", status.label())
            }
        }
    }
}

impl Feature<'_> {
    /// What a page may conclude (see the module docs).
    pub fn verdict(&self) -> Verdict {
        let strict = self.method == Some(CLOSE);
        if let Some(probe) = self.probe {
            match &probe.status {
                MethodStatus::Success => return Verdict::Supported,
                MethodStatus::InvalidParams | MethodStatus::ResourceNotFound if !strict => {
                    return Verdict::Supported;
                }
                MethodStatus::MethodNotFound | MethodStatus::NotApplicable => {
                    return Verdict::NotSupported;
                }
                MethodStatus::AuthRequired => return Verdict::NeedsSignIn,
                _ => {}
            }
        }
        match self.advertised {
            Some(true) => Verdict::Advertised,
            Some(false) => Verdict::NotSupported,
            None => Verdict::Unknown(self.probe.map(|p| p.status.clone())),
        }
    }
}

/// The method of probe schema 2 that only a success confirms.
pub(super) const CLOSE: &str = "session/close";

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(method: &str, advertised: Option<bool>, status: Option<&str>) -> Verdict {
        let probe = status.map(|s| MethodProbe {
            status: MethodStatus::parse(s),
            code: None,
            message: None,
        });
        Feature {
            capability: None,
            method: Some(method),
            advertised,
            probe: probe.as_ref(),
        }
        .verdict()
    }

    #[test]
    fn verdicts() {
        use Verdict::*;
        let list = "session/list";
        for (method, advertised, status, expected) in [
            (list, Some(true), Some("success"), Supported),
            (list, Some(false), Some("success"), Supported),
            (list, None, Some("invalid_params"), Supported),
            (list, None, Some("resource_not_found"), Supported),
            (CLOSE, Some(true), Some("invalid_params"), Advertised),
            (CLOSE, Some(true), Some("resource_not_found"), Advertised),
            (CLOSE, Some(true), Some("success"), Supported),
            (CLOSE, Some(false), Some("not_applicable"), NotSupported),
            (list, Some(true), Some("method_not_found"), NotSupported),
            (list, Some(true), Some("auth_required"), NeedsSignIn),
            (list, Some(false), Some("auth_required"), NeedsSignIn),
            (list, Some(true), Some("error"), Advertised),
            (list, Some(false), Some("no_response"), NotSupported),
            (list, Some(true), None, Advertised),
            (list, Some(false), None, NotSupported),
            (list, None, None, Unknown(None)),
            (
                list,
                None,
                Some("rate_limited"),
                Unknown(Some(MethodStatus::Other("rate_limited".to_owned()))),
            ),
            (
                list,
                None,
                Some("not_probed"),
                Unknown(Some(MethodStatus::NotProbed)),
            ),
        ] {
            assert_eq!(
                feature(method, advertised, status),
                expected,
                "{method} {advertised:?} {status:?}"
            );
        }
    }

    #[test]
    fn status_words_read_back() {
        for word in [
            "success",
            "auth_required",
            "method_not_found",
            "invalid_params",
            "resource_not_found",
            "cancelled",
            "error",
            "no_response",
            "decode_error",
            "process_error",
            "invalid_response",
            "not_applicable",
            "not_probed",
        ] {
            let status = MethodStatus::parse(word);
            assert!(!matches!(status, MethodStatus::Other(_)), "{word}");
            assert_eq!(status.as_str(), word);
        }
        let other = MethodStatus::parse(" rate_limited ");
        assert_eq!(other, MethodStatus::Other("rate_limited".to_owned()));
        assert_eq!(
            (other.as_str(), other.label()),
            ("rate_limited", "rate_limited")
        );
    }

    #[test]
    fn labels() {
        for (verdict, label) in [
            (Verdict::Supported, "supported"),
            (Verdict::NotSupported, "not supported"),
            (
                Verdict::NeedsSignIn,
                "could not be checked without signing in",
            ),
            (
                Verdict::Unknown(Some(MethodStatus::NoResponse)),
                "unknown (the probe got: no answer in time)",
            ),
        ] {
            assert_eq!(verdict.label(), label);
        }
    }
}
