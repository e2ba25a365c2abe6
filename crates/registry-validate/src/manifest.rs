//! Manifest checks: reading `agent.json` (strict JSON; JSONC is an error but still read), then
//! the registry CI's rules on it, each problem pointing at the key or value it is about.
//!
//! The rules are the required fields, the id, the version, the distribution, the binary targets'
//! `cmd`, the archive and package rules (which the preview channel's, `crate::preview`, reuse),
//! and fields outside the format (the RFD's older shape, unknown keys: warnings, as the CI
//! publishes them).

use std::collections::HashSet;

use registry_core::id;
use registry_core::load::{describe, parser_message};
use registry_core::model::{self, Os, Platform, cmd_problem};
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Rule, Severity, Span};
use crate::spans::{self, JsonMap, dotted, escape};
use crate::versions;

/// The fields every manifest must have, in the order the CI lists them.
const REQUIRED: [(&str, &str); 5] = [
    ("id", "add \"id\": \"<the folder name>\""),
    ("name", "add \"name\": \"<the name people know it by>\""),
    (
        "version",
        "add \"version\": \"1.0.0\" (the release this manifest installs)",
    ),
    (
        "description",
        "add \"description\": \"<one sentence on what it does>\"",
    ),
    (
        "distribution",
        "add \"distribution\": {\"npx\": {\"package\": \"name@1.0.0\"}} (or \"binary\", \"uvx\")",
    ),
];
/// The keys of `distribution`.
pub(crate) const METHODS: [&str; 3] = ["binary", "npx", "uvx"];
/// Archive endings the CI refuses: installers, not archives.
const INSTALLERS: [&str; 6] = [".dmg", ".pkg", ".deb", ".rpm", ".msi", ".appimage"];
/// The RFD's top-level fields that the published shape dropped, with how to migrate each.
const LEGACY_FIELDS: [(&str, &str); 4] = [
    ("homepage", "rename `homepage` to `website`"),
    (
        "schema_version",
        "remove `schema_version`: the registry's agent.schema.json versions the format",
    ),
    (
        "capabilities",
        "remove `capabilities`: clients learn them from the agent itself, over ACP `initialize`",
    ),
    (
        "auth",
        "remove `auth`: clients learn the auth methods from the agent itself, over ACP `initialize`",
    ),
];

/// A manifest that could be read.
#[derive(Clone, Debug)]
pub(crate) struct Parsed {
    /// The text as written (for lines and columns).
    pub(crate) text: String,
    /// The value, keys in written order.
    pub(crate) value: Value,
    /// Where each value is.
    pub(crate) json: JsonMap,
}

/// Reads a manifest: UTF-8, then strict JSON, else JSONC (an error, but the value is kept so
/// that the other rules still run).
pub(crate) fn parse(file: &str, bytes: &[u8], out: &mut Vec<Diagnostic>) -> Option<Parsed> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid = String::from_utf8_lossy(&bytes[..err.valid_up_to()]);
            out.push(diagnostic(
                Severity::Error,
                Rule::Encoding,
                file,
                Some(Span::new(&valid, valid.len()..valid.len())),
                "the manifest is not UTF-8 text".to_owned(),
                "save it as UTF-8".to_owned(),
            ));
            return None;
        }
    };
    if text.starts_with('\u{feff}') {
        out.push(diagnostic(
            Severity::Error,
            Rule::Encoding,
            file,
            Some(Span::new(text, 0..3)),
            "the manifest starts with a byte-order mark, which strict JSON parsers refuse"
                .to_owned(),
            "save it as UTF-8 without a BOM".to_owned(),
        ));
        return None;
    }
    let strict = match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            let json = JsonMap::scan(text);
            return Some(Parsed {
                text: text.to_owned(),
                value,
                json,
            });
        }
        Err(err) => err,
    };
    if let Some(stripped) = registry_core::load::strip_jsonc(text)
        && let Ok(value) = serde_json::from_str::<Value>(&stripped)
    {
        let first = text
            .bytes()
            .zip(stripped.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        out.push(diagnostic(
            Severity::Error,
            Rule::Jsonc,
            file,
            Some(Span::new(text, first..first + 2)),
            "the manifest is JSONC (comments or trailing commas), and the registry's CI parses \
             strict JSON: it fails there as invalid JSON (read here anyway, to report the rest)"
                .to_owned(),
            "remove comments and trailing commas".to_owned(),
        ));
        let json = JsonMap::scan(&stripped);
        return Some(Parsed {
            text: text.to_owned(),
            value,
            json,
        });
    }
    let message = parser_message(&strict);
    let line_start: usize = text
        .split_inclusive('\n')
        .take(strict.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let at = (line_start + strict.column().saturating_sub(1)).min(text.len());
    out.push(diagnostic(
        Severity::Error,
        Rule::JsonSyntax,
        file,
        Some(Span::new(text, at..at + 1)),
        format!("the manifest is not valid JSON: {message}"),
        "fix the syntax there (a missing comma, quote or bracket is the usual cause)".to_owned(),
    ));
    None
}

fn diagnostic(
    severity: Severity,
    rule: Rule,
    file: &str,
    span: Option<Span>,
    message: String,
    hint: String,
) -> Diagnostic {
    Diagnostic {
        severity,
        rule,
        file: file.to_owned(),
        span,
        message,
        hint,
    }
}

/// Which part of a JSON place a diagnostic points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// The key (`"version"`), or the value where there is no key.
    Key,
    /// The value.
    Value,
    /// For something missing at this pointer: the key of its parent object, or the parent's
    /// opening brace.
    Missing,
}

/// Collects the diagnostics of one manifest.
pub(crate) struct Sink<'a> {
    pub(crate) file: &'a str,
    pub(crate) parsed: &'a Parsed,
    pub(crate) out: &'a mut Vec<Diagnostic>,
    /// Pointers a built-in rule already reported an error at; a schema error there would only
    /// repeat it.
    pub(crate) claimed: HashSet<String>,
}

impl Parsed {
    /// Where `pointer` is in the text; a pointer the text lacks points at its nearest parent.
    pub(crate) fn span(&self, pointer: &str, at: At) -> Option<Span> {
        let (mut pointer, mut at) = (pointer, at);
        if at == At::Missing {
            pointer = spans::parent(pointer).unwrap_or("");
            at = At::Key;
        }
        loop {
            if let Some(place) = self.json.get(pointer) {
                let range = match (at, &place.key) {
                    (At::Key, Some(key)) => key.clone(),
                    (At::Key, None) => place.value.start..place.value.start + 1,
                    _ => place.value.clone(),
                };
                return Some(Span::new(&self.text, range));
            }
            pointer = spans::parent(pointer)?;
            at = At::Key;
        }
    }
}

impl Sink<'_> {
    pub(crate) fn error(
        &mut self,
        rule: Rule,
        pointer: &str,
        at: At,
        message: String,
        hint: String,
    ) {
        self.claimed.insert(pointer.to_owned());
        self.push(Severity::Error, rule, pointer, at, message, hint);
    }

    pub(crate) fn warning(
        &mut self,
        rule: Rule,
        pointer: &str,
        at: At,
        message: String,
        hint: String,
    ) {
        self.push(Severity::Warning, rule, pointer, at, message, hint);
    }

    fn push(
        &mut self,
        severity: Severity,
        rule: Rule,
        pointer: &str,
        at: At,
        message: String,
        hint: String,
    ) {
        let span = self.parsed.span(pointer, at);
        self.out
            .push(diagnostic(severity, rule, self.file, span, message, hint));
    }
}

/// The CI's rules on one manifest of folder `folder`; returns the manifest's `id` when it is a
/// string.
pub(crate) fn check(folder: &str, sink: &mut Sink<'_>) -> Option<String> {
    let parsed = sink.parsed;
    for (pointer, key) in &parsed.json.duplicates {
        let span = Span::new(&parsed.text, key.clone());
        sink.out.push(diagnostic(
            Severity::Warning,
            Rule::DuplicateKey,
            sink.file,
            Some(span),
            format!(
                "`{}` is written twice in the same object; the last one wins",
                dotted(pointer)
            ),
            "remove one of the two".to_owned(),
        ));
    }
    let Value::Object(root) = &parsed.value else {
        sink.error(
            Rule::WrongType,
            "",
            At::Value,
            format!("the manifest is {}, not an object", describe(&parsed.value)),
            "write the manifest as {\"id\": ..., \"name\": ..., \"version\": ..., \
             \"description\": ..., \"distribution\": {...}}"
                .to_owned(),
        );
        return None;
    };
    legacy_shape(root, sink);
    for (field, hint) in REQUIRED {
        let pointer = format!("/{field}");
        match root.get(field) {
            None => sink.error(
                Rule::RequiredField,
                &pointer,
                At::Missing,
                format!("missing required field `{field}`"),
                hint.replace("<the folder name>", folder),
            ),
            Some(Value::String(_)) => {}
            Some(_) if field == "distribution" => {}
            Some(other) => sink.error(
                Rule::WrongType,
                &pointer,
                At::Value,
                format!("`{field}` is {}, not a string", describe(other)),
                format!("write `{field}` as a string"),
            ),
        }
    }
    let id = root.get("id").and_then(Value::as_str);
    if let Some(id) = id {
        check_id(folder, id, sink);
    }
    let version = root.get("version").and_then(Value::as_str);
    if let Some(version) = version
        && let Some(release) = versions::prerelease_of(version)
    {
        sink.error(
            Rule::VersionFormat,
            "/version",
            At::Value,
            format!(
                "`version` \"{version}\" is a prerelease: the root version is always a plain \
                 X.Y.Z release"
            ),
            format!(
                "set \"version\" to the newest release, and serve \"{version}\" on the preview \
                 channel: \"preview\": {{\"version\": \"{}\", \"distribution\": {{...}}}}",
                versions::suggest_preview(version)
                    .unwrap_or_else(|| format!("{release}-preview.1"))
            ),
        );
    } else if let Some(version) = version
        && !versions::is_release_version(version)
    {
        sink.error(
            Rule::VersionFormat,
            "/version",
            At::Value,
            format!(
                "`version` \"{version}\" is not a release version: it needs at least three \
                     dot-separated parts, the first three all digits"
            ),
            format!("write it as \"{}\"", suggest_version(version)),
        );
    }
    if let Some(distribution) = root.get("distribution") {
        check_distribution(distribution, version, sink);
    }
    id.map(str::to_owned)
}

fn check_id(folder: &str, id: &str, sink: &mut Sink<'_>) {
    let problem = if id.is_empty() {
        Some("`id` is empty".to_owned())
    } else if !id.starts_with(char::is_alphabetic) {
        Some(format!("`id` \"{id}\" must start with a letter"))
    } else if !id::is_slug(id) {
        Some(format!(
            "`id` \"{id}\" may only have lowercase letters, digits and -"
        ))
    } else {
        None
    };
    if let Some(message) = problem {
        sink.error(
            Rule::IdFormat,
            "/id",
            At::Value,
            message,
            format!(
                "use a lowercase slug such as \"{}\", and name the folder the same",
                id::slugify(id)
            ),
        );
    } else if id.len() > id::MAX_LEN {
        sink.error(
            Rule::IdTooLong,
            "/id",
            At::Value,
            format!(
                "`id` is {} bytes long, over the {} an id may have: the catalogue could give it \
                 no pre-rendered page and no install folder",
                id.len(),
                id::MAX_LEN
            ),
            format!(
                "use a shorter slug such as \"{}\", and name the folder the same",
                id::slugify(&id[..id::MAX_LEN / 2])
            ),
        );
    } else if id != folder {
        sink.error(
            Rule::IdFolderMismatch,
            "/id",
            At::Value,
            format!("`id` \"{id}\" differs from its folder name `{folder}/`"),
            format!("rename the folder to `{id}/`, or set \"id\": \"{folder}\""),
        );
    }
}

/// Fields outside the format: a warning per field the RFD's older shape had or the format does
/// not know, an error for targets directly under `distribution` (the schema forbids them).
fn legacy_shape(root: &Map<String, Value>, sink: &mut Sink<'_>) {
    for (field, hint) in LEGACY_FIELDS {
        if root.contains_key(field) {
            sink.warning(
                Rule::LegacyShape,
                &format!("/{field}"),
                At::Key,
                format!(
                    "`{field}` belongs to the RFD's older manifest shape: the CI accepts it and \
                     publishes it as it is, but no client reads it"
                ),
                hint.to_owned(),
            );
        }
    }
    for key in root.keys() {
        // `$schema` points an editor at agent.schema.json; it is not data.
        // `preview` is the preview channel's block, which the build takes out.
        let known = model::FIELDS.contains(&key.as_str())
            || key == "preview"
            || key == "$schema"
            || LEGACY_FIELDS.iter().any(|(field, _)| field == key);
        if !known {
            let hint = match near_miss(key) {
                Some(field) => format!("did you mean `{field}`? rename it"),
                None => format!(
                    "remove `{key}`, or see the registry's FORMAT.md for the field you meant"
                ),
            };
            sink.warning(
                Rule::UnknownField,
                &format!("/{}", escape(key)),
                At::Key,
                format!(
                    "`{key}` is not a field of the registry's format: the CI accepts it and \
                     publishes it as it is, but no client reads it"
                ),
                hint,
            );
        }
    }
    let Some(Value::Object(distribution)) = root.get("distribution") else {
        return;
    };
    let targets: Vec<&String> = distribution
        .keys()
        .filter(|key| !METHODS.contains(&key.as_str()) && Platform::looks_like(key))
        .collect();
    let Some(first) = targets.first() else { return };
    let names: Vec<&str> = targets.iter().map(|k| k.as_str()).collect();
    for key in &targets {
        sink.claimed
            .insert(format!("/distribution/{}", escape(key)));
    }
    sink.error(
        Rule::LegacyShape,
        &format!("/distribution/{}", escape(first)),
        At::Key,
        format!(
            "platform targets ({}) are directly under `distribution`: the RFD's older manifest \
             shape",
            names.join(", ")
        ),
        "move them into \"distribution\": {\"binary\": {\"darwin-aarch64\": {...}, ...}}"
            .to_owned(),
    );
}

fn check_distribution(distribution: &Value, version: Option<&str>, sink: &mut Sink<'_>) {
    let methods = match distribution {
        Value::Object(methods) if !methods.is_empty() => methods,
        other => {
            let what = match other {
                Value::Object(_) => "empty".to_owned(),
                other => format!("{}, not an object", describe(other)),
            };
            sink.error(
                Rule::DistributionEmpty,
                "/distribution",
                At::Value,
                format!("`distribution` is {what}; it must say how to run the agent"),
                "add at least one of \"binary\", \"npx\" or \"uvx\" under \"distribution\""
                    .to_owned(),
            );
            return;
        }
    };
    for (key, value) in methods {
        let pointer = format!("/distribution/{}", escape(key));
        match key.as_str() {
            "binary" => check_binary(value, version, sink),
            "npx" | "uvx" => check_package(key, value, version, sink),
            _ if sink.claimed.contains(&pointer) => {}
            _ => sink.error(
                Rule::DistributionUnknownMethod,
                &pointer,
                At::Key,
                format!("`distribution.{key}` is not a distribution method"),
                "use \"binary\", \"npx\" or \"uvx\"".to_owned(),
            ),
        }
    }
}

fn check_binary(binary: &Value, version: Option<&str>, sink: &mut Sink<'_>) {
    let targets = match binary {
        Value::Object(targets) if !targets.is_empty() => targets,
        other => {
            let what = match other {
                Value::Object(_) => "empty".to_owned(),
                other => format!("{}, not an object", describe(other)),
            };
            sink.error(
                Rule::BinaryEmpty,
                "/distribution/binary",
                At::Value,
                format!("`distribution.binary` is {what}"),
                "add a target such as \"linux-x86_64\": {\"archive\": \"https://...\", \"cmd\": \
                 \"./agent\"}"
                    .to_owned(),
            );
            return;
        }
    };
    for key in targets.keys().filter(|k| Platform::parse(k).is_none()) {
        let hint = match Platform::parse_loose(key) {
            Some(platform) => format!("rename it to \"{}\"", platform.as_str()),
            None => format!("use one of {}", Platform::KEYS.join(", ")),
        };
        sink.error(
            Rule::UnknownPlatform,
            &format!("/distribution/binary/{}", escape(key)),
            At::Key,
            format!("`{key}` is not a platform the registry knows"),
            hint,
        );
    }
    let missing: Vec<&str> = Os::ALL
        .into_iter()
        .filter(|os| {
            !targets
                .keys()
                .any(|k| Platform::parse(k).is_some_and(|platform| platform.os == *os))
        })
        .map(Os::as_str)
        .collect();
    if !missing.is_empty() {
        sink.warning(
            Rule::MissingOsFamily,
            "/distribution/binary",
            At::Key,
            format!(
                "`distribution.binary` has no build for {}",
                missing.join(" or ")
            ),
            match missing[..] {
                [os] => format!("add {os}-x86_64 or {os}-aarch64 if such a build exists"),
                _ => format!(
                    "add targets for {} if such builds exist",
                    missing.join(" and ")
                ),
            },
        );
    }
    for (platform, target) in targets {
        let pointer = format!("/distribution/binary/{}", escape(platform));
        let Value::Object(target) = target else {
            sink.error(
                Rule::WrongType,
                &pointer,
                At::Value,
                format!("`{platform}` is {}, not an object", describe(target)),
                "write it as {\"archive\": \"https://...\", \"cmd\": \"./agent\"}".to_owned(),
            );
            continue;
        };
        for (field, example) in [
            ("archive", "\"https://.../agent.tar.gz\""),
            ("cmd", "\"./agent\""),
        ] {
            match target.get(field) {
                None => sink.error(
                    Rule::RequiredField,
                    &format!("{pointer}/{field}"),
                    At::Missing,
                    format!("the {platform} target has no `{field}`"),
                    format!("add \"{field}\": {example} to it"),
                ),
                Some(Value::String(_)) => {}
                Some(other) => sink.error(
                    Rule::WrongType,
                    &format!("{pointer}/{field}"),
                    At::Value,
                    format!(
                        "`{field}` of {platform} is {}, not a string",
                        describe(other)
                    ),
                    format!("write `{field}` as a string"),
                ),
            }
        }
        if let Some(Value::String(cmd)) = target.get("cmd") {
            check_cmd(platform, cmd, &format!("{pointer}/cmd"), sink);
        }
        if let Some(Value::String(archive)) = target.get("archive") {
            check_archive(
                platform,
                archive,
                &format!("{pointer}/archive"),
                version,
                sink,
            );
        }
    }
}

/// `cmd` must name a file inside the folder the archive is unpacked in: clients (and the
/// catalogue's install steps) run it from there.
fn check_cmd(platform: &str, cmd: &str, pointer: &str, sink: &mut Sink<'_>) {
    let windows = platform.starts_with("windows-");
    let problem = match cmd_problem(cmd) {
        Some(problem) => format!("{problem}"),
        None if cmd.contains('\\') && !windows => "has a backslash, which macOS and Linux read as \
                                                   part of a file name, not as a separator"
            .to_owned(),
        None => return,
    };
    sink.error(
        Rule::CmdPath,
        pointer,
        At::Value,
        format!(
            "the {platform} `cmd` \"{cmd}\" {problem}: it must name the executable inside the \
             archive, which is run from the folder the archive is unpacked in"
        ),
        "write the executable's path inside the archive, with / between folders (e.g. \
         \"./bin/agent\")"
            .to_owned(),
    );
}

fn check_archive(
    platform: &str,
    archive: &str,
    pointer: &str,
    version: Option<&str>,
    sink: &mut Sink<'_>,
) {
    let path = archive
        .split(['?', '#'])
        .next()
        .unwrap_or(archive)
        .to_ascii_lowercase();
    if let Some(ending) = INSTALLERS.iter().find(|ending| path.ends_with(*ending)) {
        sink.error(
            Rule::ArchiveInstaller,
            pointer,
            At::Value,
            format!(
                "the {platform} archive is a {ending} installer; clients can only unpack .zip, \
                 .tar.gz, .tgz, .tar.bz2, .tbz2 or run a raw binary"
            ),
            format!("publish a .tar.gz or .zip of the {platform} build and point `archive` at it"),
        );
    }
    if archive.contains("/latest/") {
        sink.error(
            Rule::LatestUrl,
            pointer,
            At::Value,
            format!(
                "the {platform} archive URL contains /latest/, so what it installs changes \
                 without the manifest changing"
            ),
            "link the release of this `version` (e.g. /releases/download/v1.2.3/...)".to_owned(),
        );
    } else if let (Some(found), Some(version)) = (versions::url_version(archive), version)
        && found.compared != version
    {
        let read = if found.compared == found.written {
            String::new()
        } else {
            format!(", which the CI reads as {}", found.compared)
        };
        let hint = if found.written == version {
            "the CI compares only the first three parts of the URL's version: publish a \
                 three-part `version` (and release path)"
                .to_owned()
        } else {
            format!(
                "point the URL at the {version} release, or set \"version\": \"{}\"",
                found.written
            )
        };
        sink.error(
            Rule::VersionMismatch,
            pointer,
            At::Value,
            format!(
                "the {platform} archive is version {} (from {}{read}), but `version` is \
                     \"{version}\"",
                found.written, found.source
            ),
            hint,
        );
    }
}

/// Where a distribution is in the manifest, and which version its specs must pin.
#[derive(Clone, Copy)]
pub(crate) struct Channel<'a> {
    /// The pointer of the object holding `distribution`: `""`, or `"/preview"`.
    pub(crate) base: &'a str,
    /// The field holding the version, for messages: `version`, `preview.version`.
    pub(crate) version_field: &'a str,
    /// Its value, when it is a string.
    pub(crate) version: Option<&'a str>,
}

impl Channel<'_> {
    /// `distribution` or `preview.distribution`, for messages.
    fn distribution(&self) -> String {
        match self.base {
            "" => "distribution".to_owned(),
            base => format!("{}.distribution", dotted(base)),
        }
    }
}

fn check_package(method: &str, value: &Value, version: Option<&str>, sink: &mut Sink<'_>) {
    let channel = Channel {
        base: "",
        version_field: "version",
        version,
    };
    check_package_in(channel, method, value, sink);
}

/// The package rules on `<channel>/distribution/<method>`: a `package` string, not `@latest`,
/// pinned (if at all) to the channel's version.
pub(crate) fn check_package_in(
    channel: Channel<'_>,
    method: &str,
    value: &Value,
    sink: &mut Sink<'_>,
) {
    let version = channel.version;
    let field = channel.version_field;
    let distribution = channel.distribution();
    let pointer = format!("{}/distribution/{method}", channel.base);
    let Value::Object(package) = value else {
        sink.error(
            Rule::WrongType,
            &pointer,
            At::Value,
            format!(
                "`{distribution}.{method}` is {}, not an object",
                describe(value)
            ),
            format!("write it as \"{method}\": {{\"package\": \"name@1.0.0\"}}"),
        );
        return;
    };
    let pointer = format!("{pointer}/package");
    let spec = match package.get("package") {
        Some(Value::String(spec)) => spec,
        None => {
            sink.error(
                Rule::RequiredField,
                &pointer,
                At::Missing,
                format!("`{distribution}.{method}` has no `package`"),
                format!(
                    "add \"package\": \"name{}{}\"",
                    if method == "npx" { "@" } else { "==" },
                    version.unwrap_or("1.0.0")
                ),
            );
            return;
        }
        Some(other) => {
            sink.error(
                Rule::WrongType,
                &pointer,
                At::Value,
                format!("`package` of {method} is {}, not a string", describe(other)),
                "write `package` as a string".to_owned(),
            );
            return;
        }
    };
    let name = if method == "npx" {
        versions::npm_spec(spec).0
    } else {
        versions::pypi_name(spec)
    };
    let pinned = |version: &str| match method {
        "npx" => format!("\"{name}@{version}\""),
        _ => format!("\"{name}=={version}\""),
    };
    let latest = versions::pins_latest(spec);
    if latest {
        sink.error(
            Rule::LatestPackage,
            &pointer,
            At::Value,
            format!(
                "the {method} package \"{spec}\" is pinned to @latest, so what it installs changes \
                 without the manifest changing"
            ),
            format!(
                "pin this release: {}",
                pinned(version.unwrap_or("<version>"))
            ),
        );
    }
    let found = match method {
        "npx" if !latest => versions::npm_spec(spec).1,
        "uvx" => versions::uvx_version(spec),
        _ => None,
    };
    if let (Some(found), Some(version)) = (found, version)
        && found != version
    {
        sink.error(
            Rule::VersionMismatch,
            &pointer,
            At::Value,
            format!(
                "the {method} package \"{spec}\" is version {found}, but `{field}` is \
                     \"{version}\""
            ),
            format!("write {}, or set `{field}` to \"{found}\"", pinned(version)),
        );
    }
}

/// The format's field a misspelt key most likely meant: a known alias (`licence`, `repo`,
/// `author`, `url`…), else a field at most two edits away.
fn near_miss(key: &str) -> Option<&'static str> {
    const ALIASES: [(&str, &str); 9] = [
        ("licence", "license"),
        ("license-url", "license_url"),
        ("licenseUrl", "license_url"),
        ("repo", "repository"),
        ("source", "repository"),
        ("author", "authors"),
        ("url", "website"),
        ("homepage_url", "website"),
        ("distributions", "distribution"),
    ];
    if let Some((_, field)) = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(key))
    {
        return Some(field);
    }
    let lower = key.to_ascii_lowercase();
    model::FIELDS
        .into_iter()
        .chain(["preview"])
        .map(|field| (strsim::damerau_levenshtein(&lower, field), field))
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, field)| field)
}

/// `1.2` → `1.2.0`, `v1.2.3` → `1.2.3`, `1.2.3-beta` → `1.2.3`: the nearest release version.
fn suggest_version(version: &str) -> String {
    let trimmed = version.trim().trim_start_matches(['v', 'V']);
    let mut parts: Vec<String> = trimmed
        .split('.')
        .take(3)
        .map(|part| {
            part.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .map(|digits| {
            if digits.is_empty() {
                "0".to_owned()
            } else {
                digits
            }
        })
        .collect();
    while parts.len() < 3 {
        parts.push("0".to_owned());
    }
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let versions = [
            ("1.2", "1.2.0"),
            ("v1.2.3", "1.2.3"),
            ("1.2.3-beta", "1.2.3"),
            ("x", "0.0.0"),
        ];
        for (version, expect) in versions {
            assert_eq!(suggest_version(version), expect, "{version}");
        }
    }

    #[test]
    fn platform_lookalikes() {
        let table = [
            ("darwin-aarch64", true),
            ("macos-arm64", true),
            ("linux-riscv64", true),
            ("freebsd-x64", true),
            ("binary", false),
            ("docker-image", false),
        ];
        for (key, expect) in table {
            assert_eq!(Platform::looks_like(key), expect, "{key}");
        }
    }
}
