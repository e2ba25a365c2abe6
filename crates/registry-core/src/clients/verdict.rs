//! Will this agent work in this client, on this platform? A [`Verdict`]: one [`Reason`] per
//! rule, each in plain words with the fact it rests on ([`Basis`]), and the worst of their
//! [`Outcome`]s.
//!
//! The rules, in the order their reasons are listed (each is a function below):
//!
//! 1. **Quarantine** (`quarantine.json`, [`Listings::quarantine_of`]): an agent the registry's
//!    daily checks set aside does not work; a list that was not loaded leaves it unknown.
//! 2. **Platforms** (the client's `platforms`): a client that does not run on the visitor's
//!    system does not work there.
//! 3. **Listing** (the client's `registry` and `addByHand`, the registry's views in
//!    [`Listings`]): a client that reads a view installs the agents in it; one the view leaves
//!    out can be added by hand when the client allows it; a client configured by hand always
//!    takes a pasted snippet. The preview view lists the same agents as the JetBrains view
//!    (the registry's CI builds it from that list), but it is checked on its own when loaded.
//! 4. **Distributions** (the manifest, the client's `distributions`): something must run on
//!    the visitor's platform: a `binary` for exactly that platform, or `npx` or `uvx`, which run
//!    anywhere. A client installing from its view counts only the kinds it installs (and then
//!    brings their runtime itself: Zed and JetBrains IDEs download Node.js or Python); when the
//!    agent is configured or added by hand, `npx` needs Node.js and `uvx` needs uv installed
//!    first, unless there is a binary for the platform. When no kind a client installs fits
//!    but the client can add agents by hand, that is the step (Zed, for instance, shows no
//!    agent that only has `uvx`: registry issue #147).
//! 5. **Sign-in** (the probe's `authMethods`, the client's `authMethods`): an agent signs in
//!    with `agent` (the client sends `authenticate`) or `terminal` (the client runs its login
//!    command in a terminal, after advertising `clientCapabilities.auth.terminal`). Either
//!    supported on both sides is fine; an agent that offers `terminal` to a client without it
//!    needs its login run from a terminal first; one that offers only `agent` to a client
//!    without it cannot sign in. The registry's CI lists only agents offering `agent` or
//!    `terminal` (its `AUTHENTICATION.md`), so a probe that saw neither contradicts the
//!    registry and says nothing about sign-in: unknown, never "nothing to sign in".
//! 6. **Protocol version** (the probe's `protocolVersion`, the client's `protocolVersions`): a
//!    version the client does not speak does not work.
//!
//! A fact that is not known (a client fact written `unknown`, an agent never probed or whose
//! probe failed, a view or the quarantine list not loaded) makes its reason
//! [`Outcome::Unknown`]: never [`Outcome::Works`].

use super::{Citation, ClientFact, ClientProfile, Fact, RegistryView};
use crate::edition::Day;
use crate::listing::{Listings, Presence};
use crate::model::{Distribution, Entry, Method, Platform};
use crate::protocol::{AuthMethod, Facts};
use crate::snippets::binary_target;

/// Whether an agent works in a client on a platform, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The worst outcome of [`Verdict::reasons`].
    pub outcome: Outcome,
    /// One per rule that applies, in the order of the rules.
    pub reasons: Vec<Reason>,
}

/// How it goes. Ordered from best to worst, so the worst of several is their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// It works as the client installs it.
    Works,
    /// It works after a step the reason names (add it by hand, install Node.js, sign in…).
    WorksWithStep,
    /// A fact it needs is not known.
    Unknown,
    /// It does not work.
    DoesNotWork,
}

impl Outcome {
    /// Every outcome, best first.
    pub const ALL: [Outcome; 4] = [
        Outcome::Works,
        Outcome::WorksWithStep,
        Outcome::Unknown,
        Outcome::DoesNotWork,
    ];

    /// The query-string word: `works`, `works-with-step`, `unknown`, `does-not-work`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Works => "works",
            Outcome::WorksWithStep => "works-with-step",
            Outcome::Unknown => "unknown",
            Outcome::DoesNotWork => "does-not-work",
        }
    }

    /// What people read: `Works`, `Works after a step`, `Not known`, `Does not work`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Works => "Works",
            Outcome::WorksWithStep => "Works after a step",
            Outcome::Unknown => "Not known",
            Outcome::DoesNotWork => "Does not work",
        }
    }
}

/// One rule's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// How it goes, by this rule.
    pub outcome: Outcome,
    /// Why, in a sentence for people (`Zed does not run on Windows.`).
    pub text: String,
    /// The fact it rests on.
    pub basis: Basis,
}

/// The fact a [`Reason`] rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The agent's manifest: its `distribution`.
    Manifest,
    /// One of the registry's views (whether it lists the agent, or was loaded).
    View(RegistryView),
    /// The registry's quarantine list.
    Quarantine,
    /// The protocol probe, with its day (`None` when never probed or the matrix has no day).
    Probe {
        /// The day of the probe.
        day: Option<Day>,
    },
    /// A fact of the client's profile, with where it was read (`None` when it is unknown).
    Client {
        /// Which fact.
        fact: ClientFact,
        /// Its source and day, when known.
        citation: Option<Citation>,
    },
}

/// The verdict for `entry` (an agent of the main registry) in `client` on `platform`, given
/// the registry's other lists (see [`Listings`]) and the probe's [`Facts`] about the agent
/// (`ProtocolMatrix::facts`). Pure: everything it reads is passed in.
pub fn verdict(
    entry: &Entry,
    client: &ClientProfile,
    platform: Platform,
    listings: &Listings,
    facts: &Facts,
) -> Verdict {
    let mut reasons = vec![quarantine(entry, listings), platforms(client, platform)];
    let (listed, route) = listing(entry, client, listings);
    reasons.push(listed);
    reasons.extend(distributions(entry, client, platform, &route));
    reasons.push(sign_in(client, facts));
    reasons.push(protocol_version(client, facts));
    Verdict::of(reasons)
}

impl Verdict {
    /// A verdict of these reasons: the worst outcome among them ([`Outcome::Works`] when
    /// there is none).
    pub fn of(reasons: Vec<Reason>) -> Verdict {
        let outcome = reasons
            .iter()
            .map(|reason| reason.outcome)
            .max()
            .unwrap_or(Outcome::Works);
        Verdict { outcome, reasons }
    }
}

/// How the client gets the agent, once the listing rule has spoken.
enum Route<'a> {
    /// From the view it reads, with the distribution that view has for the agent.
    View(&'a Distribution),
    /// Configured or added by hand, from the main registry's manifest.
    ByHand,
    /// Not at all, or not known: only whether anything runs on the platform is checked.
    Nowhere,
}

/// Rule 1: the registry's quarantine list (`quarantine.json`).
fn quarantine(entry: &Entry, listings: &Listings) -> Reason {
    let (outcome, text) = match (&listings.quarantine, listings.quarantine_of(entry)) {
        (None, _) => (
            Outcome::Unknown,
            "The registry's quarantine list was not loaded, so whether its daily checks skip \
             this agent is not known."
                .to_owned(),
        ),
        (Some(_), Some(reason)) => (
            Outcome::DoesNotWork,
            format!(
                "The registry's daily checks have set this agent aside. {}",
                reason.sentence()
            ),
        ),
        (Some(_), None) => (
            Outcome::Works,
            "The registry's daily checks have not set this agent aside.".to_owned(),
        ),
    };
    Reason {
        outcome,
        text,
        basis: Basis::Quarantine,
    }
}

/// Rule 2: the client's `platforms`.
fn platforms(client: &ClientProfile, platform: Platform) -> Reason {
    let name = &client.name;
    let os = platform.os.label();
    let (outcome, text) = match client.platforms.known() {
        None => (
            Outcome::Unknown,
            format!("Whether {name} runs on {os} is not known."),
        ),
        Some(systems) if systems.contains(&platform.os) => {
            (Outcome::Works, format!("{name} runs on {os}."))
        }
        Some(_) => (
            Outcome::DoesNotWork,
            format!("{name} does not run on {os}."),
        ),
    };
    client_reason(outcome, text, ClientFact::Platforms, &client.platforms)
}

/// Rule 3: the client's `registry` and `addByHand`, and whether that view lists the agent.
fn listing<'a>(
    entry: &'a Entry,
    client: &ClientProfile,
    listings: &'a Listings,
) -> (Reason, Route<'a>) {
    let name = &client.name;
    let Some(view) = client.registry.known().copied() else {
        let text =
            format!("Whether {name} installs agents from a registry, and which, is not known.");
        let reason = client_reason(
            Outcome::Unknown,
            text,
            ClientFact::Registry,
            &client.registry,
        );
        return (reason, Route::Nowhere);
    };
    if view == RegistryView::None {
        let text = format!("{name} is configured by hand: {}.", paste_step(client));
        let reason = client_reason(
            Outcome::WorksWithStep,
            text,
            ClientFact::Registry,
            &client.registry,
        );
        return (reason, Route::ByHand);
    }
    let label = view.label();
    let (presence, distribution) = in_view(view, entry, listings);
    match (presence, distribution) {
        (Presence::Listed, Some(distribution)) => (
            Reason {
                outcome: Outcome::Works,
                text: format!("{name} lists this agent: it is in {label}, which {name} reads."),
                basis: Basis::View(view),
            },
            Route::View(distribution),
        ),
        (Presence::Unknown, _) | (Presence::Listed, None) => (
            Reason {
                outcome: Outcome::Unknown,
                text: format!(
                    "{} was not loaded, so whether {name} lists this agent is not known.",
                    view.file().unwrap_or("The view")
                ),
                basis: Basis::View(view),
            },
            Route::Nowhere,
        ),
        (Presence::NotListed, _) => {
            let left_out = format!("{name} does not list this agent ({label} leaves it out)");
            let (outcome, text, route) = match client.add_by_hand.known() {
                Some(true) => (
                    Outcome::WorksWithStep,
                    format!("{left_out}: add it by hand; {}.", paste_step(client)),
                    Route::ByHand,
                ),
                Some(false) => (
                    Outcome::DoesNotWork,
                    format!("{left_out}, and it cannot add an agent by hand."),
                    Route::Nowhere,
                ),
                None => (
                    Outcome::Unknown,
                    format!("{left_out}, and whether it can add an agent by hand is not known."),
                    Route::Nowhere,
                ),
            };
            let reason = client_reason(outcome, text, ClientFact::AddByHand, &client.add_by_hand);
            (reason, route)
        }
    }
}

/// Rule 4: a distribution that runs on the platform, and what it takes.
fn distributions(
    entry: &Entry,
    client: &ClientProfile,
    platform: Platform,
    route: &Route<'_>,
) -> Vec<Reason> {
    let distribution = match route {
        Route::View(distribution) => distribution,
        Route::ByHand | Route::Nowhere => &entry.distribution,
    };
    let runnable = runnable(distribution, platform);
    if runnable.is_empty() {
        return vec![Reason {
            outcome: Outcome::DoesNotWork,
            text: format!(
                "There is no build of this agent for {}.",
                platform_words(platform)
            ),
            basis: Basis::Manifest,
        }];
    }
    match route {
        Route::Nowhere => Vec::new(),
        Route::ByHand => vec![by_hand_runtime(&runnable)],
        Route::View(_) => from_view(client, platform, &runnable),
    }
}

/// Rule 4 for a client installing from its view: only the kinds it installs count.
fn from_view(client: &ClientProfile, platform: Platform, runnable: &[Method]) -> Vec<Reason> {
    let name = &client.name;
    let fact = &client.distributions;
    let Some(kinds) = fact.known() else {
        let text =
            format!("Which kinds of download {name} installs from its registry is not known.");
        return vec![client_reason(
            Outcome::Unknown,
            text,
            ClientFact::Distributions,
            fact,
        )];
    };
    if let Some(method) = runnable.iter().find(|method| kinds.contains(method)) {
        let text = match method {
            Method::Binary => format!(
                "{name} downloads its build for {} itself.",
                platform_words(platform)
            ),
            Method::Npx | Method::Uvx => {
                format!("{name} installs it with {} itself.", method.as_str())
            }
        };
        return vec![client_reason(
            Outcome::Works,
            text,
            ClientFact::Distributions,
            fact,
        )];
    }
    let offered = format!(
        "{name} installs only {} agents from its registry, and this agent has only {} for {}",
        words(kinds),
        words(runnable),
        platform_words(platform)
    );
    match client.add_by_hand.known() {
        Some(true) => vec![
            client_reason(
                Outcome::WorksWithStep,
                format!("{offered}: add it by hand; {}.", paste_step(client)),
                ClientFact::Distributions,
                fact,
            ),
            by_hand_runtime(runnable),
        ],
        Some(false) => vec![client_reason(
            Outcome::DoesNotWork,
            format!("{offered}, and it cannot add an agent by hand."),
            ClientFact::Distributions,
            fact,
        )],
        None => vec![client_reason(
            Outcome::Unknown,
            format!("{offered}, and whether it can add an agent by hand is not known."),
            ClientFact::AddByHand,
            &client.add_by_hand,
        )],
    }
}

/// Rule 4 for an agent configured or added by hand: what must be installed first.
fn by_hand_runtime(runnable: &[Method]) -> Reason {
    let (outcome, text) = match runnable.first() {
        Some(Method::Npx) => (
            Outcome::WorksWithStep,
            "Install Node.js first: it runs with npx.",
        ),
        Some(Method::Uvx) => (
            Outcome::WorksWithStep,
            "Install uv first: it runs with uvx.",
        ),
        _ => (
            Outcome::Works,
            "Its build for this platform runs as downloaded: nothing else needs installing.",
        ),
    };
    Reason {
        outcome,
        text: text.to_owned(),
        basis: Basis::Manifest,
    }
}

/// Rule 5: the sign-in methods the probe saw, against the client's.
fn sign_in(client: &ClientProfile, facts: &Facts) -> Reason {
    let name = &client.name;
    let auth = match facts {
        Facts::Probed { auth, .. } => auth,
        _ => return unprobed(facts, "how it signs in"),
    };
    let offers = |method: AuthMethod| auth.contains(&method);
    let (agent, terminal) = (offers(AuthMethod::Agent), offers(AuthMethod::Terminal));
    if !agent && !terminal {
        return Reason {
            outcome: Outcome::Unknown,
            text: format!(
                "When probed{}, it offered no sign-in the registry accepts (agent or terminal), \
                 so how it signs in is not known.",
                on_day(facts)
            ),
            basis: probe_basis(facts),
        };
    }
    let fact = &client.auth_methods;
    let Some(supported) = fact.known() else {
        let text = format!("Whether {name} supports its sign-in is not known.");
        return client_reason(Outcome::Unknown, text, ClientFact::AuthMethods, fact);
    };
    let (outcome, text) = if agent && supported.contains(&AuthMethod::Agent) {
        (
            Outcome::Works,
            format!("It signs in through the agent, which {name} supports."),
        )
    } else if terminal && supported.contains(&AuthMethod::Terminal) {
        (
            Outcome::Works,
            format!("It signs in from a terminal, which {name} opens itself."),
        )
    } else if terminal {
        (
            Outcome::WorksWithStep,
            format!("Sign in from a terminal first: {name} does not run terminal sign-in."),
        )
    } else {
        (
            Outcome::DoesNotWork,
            format!("It signs in only through the agent, which {name} does not support."),
        )
    };
    client_reason(outcome, text, ClientFact::AuthMethods, fact)
}

/// Rule 6: the protocol version the probe saw, against the client's.
fn protocol_version(client: &ClientProfile, facts: &Facts) -> Reason {
    let name = &client.name;
    let written = match facts {
        Facts::Probed {
            protocol_version, ..
        } => protocol_version,
        _ => return unprobed(facts, "its ACP version"),
    };
    let Some(version) = written
        .as_deref()
        .and_then(|v| v.trim().parse::<u32>().ok())
    else {
        return Reason {
            outcome: Outcome::Unknown,
            text: format!("The probe{} did not record its ACP version.", on_day(facts)),
            basis: probe_basis(facts),
        };
    };
    let fact = &client.protocol_versions;
    let (outcome, text) = match fact.known() {
        None => (
            Outcome::Unknown,
            format!("Which ACP versions {name} speaks is not known."),
        ),
        Some(versions) if versions.contains(&version) => (
            Outcome::Works,
            format!("It speaks ACP version {version}, which {name} speaks too."),
        ),
        Some(versions) => (
            Outcome::DoesNotWork,
            format!(
                "It speaks ACP version {version}, and {name} speaks only {}.",
                versions_words(versions)
            ),
        ),
    };
    client_reason(outcome, text, ClientFact::ProtocolVersions, fact)
}

/// The reason of a rule that needs a probe when there is none, or it failed: `what` is what is
/// therefore not known.
fn unprobed(facts: &Facts, what: &str) -> Reason {
    let text = match facts {
        Facts::ProbeFailed { date, .. } if !date.is_empty() => {
            format!("The probe failed on {date}, so {what} is not known.")
        }
        Facts::ProbeFailed { .. } => format!("The probe failed, so {what} is not known."),
        _ => format!("This agent was not probed, so {what} is not known."),
    };
    Reason {
        outcome: Outcome::Unknown,
        text,
        basis: probe_basis(facts),
    }
}

fn probe_basis(facts: &Facts) -> Basis {
    let day = match facts {
        Facts::NotProbed => None,
        Facts::ProbeFailed { date, .. } | Facts::Probed { date, .. } => Day::parse(date),
    };
    Basis::Probe { day }
}

/// ` on 2026-08-20`, or nothing when the probe has no day.
fn on_day(facts: &Facts) -> String {
    match facts {
        Facts::ProbeFailed { date, .. } | Facts::Probed { date, .. } if !date.is_empty() => {
            format!(" on {date}")
        }
        _ => String::new(),
    }
}

fn client_reason<T>(outcome: Outcome, text: String, fact: ClientFact, value: &Fact<T>) -> Reason {
    Reason {
        outcome,
        text,
        basis: Basis::Client {
            fact,
            citation: value.citation(),
        },
    }
}

/// Whether `view` lists the agent, and the distribution it has for it.
fn in_view<'a>(
    view: RegistryView,
    entry: &'a Entry,
    listings: &'a Listings,
) -> (Presence, Option<&'a Distribution>) {
    let loaded = match view {
        // Every entry of the main registry is in `registry.json`.
        RegistryView::Acp => return (Presence::Listed, Some(&entry.distribution)),
        // No view: the listing rule sends such a client to "configured by hand" first.
        RegistryView::None => return (Presence::NotListed, None),
        RegistryView::JetBrains => listings.jetbrains.as_ref(),
        RegistryView::JetBrainsPreview => listings.jetbrains_preview.as_ref(),
    };
    match loaded {
        None => (Presence::Unknown, None),
        Some(view) => match view.agents.get(&entry.id) {
            Some(listed) if entry.kind == crate::model::Kind::Agent => {
                (Presence::Listed, Some(&listed.entry.distribution))
            }
            _ => (Presence::NotListed, None),
        },
    }
}

/// The kinds of `distribution` that run on `platform`, binary first: a binary only for exactly
/// that platform, `npx` and `uvx` anywhere.
fn runnable(distribution: &Distribution, platform: Platform) -> Vec<Method> {
    let mut out = Vec::with_capacity(3);
    if binary_target(distribution, platform).is_some() {
        out.push(Method::Binary);
    }
    if distribution.npx.is_some() {
        out.push(Method::Npx);
    }
    if distribution.uvx.is_some() {
        out.push(Method::Uvx);
    }
    out
}

/// `paste its snippet from this agent's page into its settings`, or, for a client the catalogue writes no
/// snippet for, `add its command in the client's settings`.
fn paste_step(client: &ClientProfile) -> &'static str {
    match client.snippet {
        Some(_) => "paste its snippet from this agent's page into its settings",
        None => "add its command in the client's settings",
    }
}

/// `Windows x86-64`.
fn platform_words(platform: Platform) -> String {
    format!("{} {}", platform.os.label(), platform.arch.label())
}

/// `binary`, `binary and npx`, `binary, npx and uvx`.
fn words(methods: &[Method]) -> String {
    join(methods.iter().map(|m| m.as_str().to_owned()).collect())
}

/// `version 1`, `versions 1 and 2`.
fn versions_words(versions: &[u32]) -> String {
    let list = join(versions.iter().map(u32::to_string).collect());
    if versions.len() == 1 {
        format!("version {list}")
    } else {
        format!("versions {list}")
    }
}

fn join(mut items: Vec<String>) -> String {
    match items.len() {
        0 => "nothing".to_owned(),
        1 => items.remove(0),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("{} and {last}", items.join(", "))
        }
    }
}
