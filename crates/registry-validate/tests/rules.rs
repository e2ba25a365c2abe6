//! Every rule, on the smallest registry that breaks it (and on near misses that must pass): the
//! exact diagnostics expected, as `severity rule file[:line:column] message-substring`.

use registry_validate::{Endpoints, Files, Remote, build, validate};

const SCHEMA: &str =
    include_str!("../../../tests/fixtures/real-registry-2026/source/agent.schema.json");
const RFD_EXAMPLE: &str = include_str!("../../../tests/fixtures/rfd-example.jsonc");
const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0h16v16H0z"/></svg>"#;
const MANIFEST: &str = r#"{"id": "a", "name": "A", "version": "1.0.0", "description": "d", "distribution": {"npx": {"package": "a@1.0.0"}}}"#;

/// A registry with the schema, plus `files`.
fn registry(files: &[(&str, &[u8])]) -> Files {
    let mut registry = Files::new();
    registry.insert("agent.schema.json", SCHEMA.as_bytes().to_vec());
    for (path, bytes) in files {
        registry.insert(path, bytes.to_vec());
    }
    registry
}

/// Folder `a/` with this manifest and a valid icon.
fn agent(manifest: &str) -> Files {
    registry(&[
        ("a/agent.json", manifest.as_bytes()),
        ("a/icon.svg", ICON.as_bytes()),
    ])
}

/// Folder `a/` with a valid manifest and this icon.
fn icon(svg: &str) -> Files {
    registry(&[
        ("a/agent.json", MANIFEST.as_bytes()),
        ("a/icon.svg", svg.as_bytes()),
    ])
}

/// A manifest for `a` whose `distribution` is `distribution` (and version `version`).
fn with_distribution(version: &str, distribution: &str) -> String {
    format!(
        r#"{{"id": "a", "name": "A", "version": "{version}", "description": "d", "distribution": {distribution}}}"#
    )
}

/// Compares every diagnostic, in order, with `expect`: `severity rule file[:line:column]` must
/// be equal and the message must contain the rest.
#[track_caller]
fn check(files: Files, expect: &[&str]) {
    let validation = validate(&files);
    let got: Vec<String> = validation
        .diagnostics
        .iter()
        .map(|d| {
            let place = d
                .span
                .map(|s| format!(":{}:{}", s.line, s.column))
                .unwrap_or_default();
            format!("{} {} {}{place}", d.severity.as_str(), d.rule, d.file)
        })
        .collect();
    let listing = validation
        .diagnostics
        .iter()
        .map(|d| format!("  {d}"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(got.len(), expect.len(), "diagnostics:\n{listing}");
    for ((got, diagnostic), expect) in got.iter().zip(&validation.diagnostics).zip(expect) {
        let mut words = expect.splitn(4, ' ');
        let head: Vec<&str> = words.by_ref().take(3).collect();
        assert_eq!(got, &head.join(" "), "diagnostics:\n{listing}");
        let needle = words.next().unwrap_or("");
        assert!(
            diagnostic.message.contains(needle),
            "{:?} does not contain {needle:?}",
            diagnostic.message
        );
        assert!(
            !diagnostic.hint.is_empty(),
            "every diagnostic has a hint: {diagnostic}"
        );
    }
}

#[test]
fn valid_entries_pass() {
    check(agent(MANIFEST), &[]);
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"uvx": {"package": "a==1.0.0", "args": ["acp"]}}"#,
        )),
        &[],
    );
    check(
        agent(&with_distribution(
            "1.9.0",
            r#"{"binary": {
            "darwin-aarch64": {"archive": "https://github.com/o/a/releases/download/v1.9/a-mac.tar.gz", "cmd": "./a"},
            "linux-x86_64": {"archive": "https://github.com/o/a/releases/download/1.9.0/a-linux.tgz", "cmd": "./a", "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
            "windows-x86_64": {"archive": "https://example.com/a-1.9.0.exe", "cmd": "a.exe", "env": {"A": "1"}}}}"#,
        )),
        &[],
    );
    // Skipped: dot folders, dist/, and anything deeper than one level.
    check(
        registry(&[
            (".github/agent.json", b"not json"),
            ("dist/agent.json", b"not json"),
            ("_not_yet_unsupported/x/agent.json", b"not json"),
        ]),
        &[],
    );
}

#[test]
fn registry_level() {
    let mut files = agent(MANIFEST);
    files = files
        .paths()
        .filter(|p| *p != "agent.schema.json")
        .map(|p| (p.to_owned(), files.get(p).unwrap_or_default().to_vec()))
        .collect();
    check(
        files,
        &["warning schema-missing agent.schema.json no agent.schema.json"],
    );
    let mut files = agent(MANIFEST);
    files.insert("agent.schema.json", b"{\"type\": 12}".to_vec());
    check(
        files,
        &["error schema-invalid agent.schema.json not a usable JSON Schema"],
    );
    let mut files = agent(MANIFEST);
    files.insert("agent.schema.json", b"{".to_vec());
    check(
        files,
        &["error schema-invalid agent.schema.json not valid JSON"],
    );
}

#[test]
fn folders() {
    check(
        registry(&[
            ("a/agent.json", MANIFEST.as_bytes()),
            ("a/extension.json", MANIFEST.as_bytes()),
            ("a/icon.svg", ICON.as_bytes()),
        ]),
        &["warning manifest-conflict a/extension.json extension.json is ignored"],
    );
    // The CI reads agent.json only; an extension's folder is skipped, with a warning.
    check(
        registry(&[
            (
                "e/extension.json",
                MANIFEST.replace("\"a\"", "\"e\"").as_bytes(),
            ),
            ("e/icon.svg", ICON.as_bytes()),
        ]),
        &["warning manifest-conflict e/extension.json has extension.json but no agent.json"],
    );
    check(
        registry(&[
            ("a/icon.svg", ICON.as_bytes()),
            ("a/agents.json", MANIFEST.as_bytes()),
        ]),
        &["warning no-manifest a/ has files but no agent.json"],
    );
}

#[test]
fn parsing() {
    check(
        registry(&[
            ("a/agent.json", b"{\"id\": \"\xff\"}"),
            ("a/icon.svg", ICON.as_bytes()),
        ]),
        &["error encoding a/agent.json:1:9 not UTF-8"],
    );
    check(
        agent(&format!("\u{feff}{MANIFEST}")),
        &["error encoding a/agent.json:1:1 byte-order mark"],
    );
    check(
        agent("{\n  \"id\": \"a\"\n  \"name\": \"A\"\n}"),
        &["error json-syntax a/agent.json:3:3 expected `,` or `}`"],
    );
    check(
        agent(&MANIFEST.replace("}}}", "},},} // done")),
        &["error jsonc a/agent.json:1:112 the registry's CI parses strict JSON"],
    );
    check(
        agent(&MANIFEST.replace(r#""name": "A","#, r#""name": "A", "name": "B","#)),
        &["warning duplicate-key a/agent.json:1:26 `name` is written twice"],
    );
}

#[test]
fn schema_rules() {
    check(
        agent(&MANIFEST.replace(r#""name": "A","#, r#""name": "A", "authors": [7],"#)),
        &["error schema a/agent.json:1:38 `authors.0` is a number, but must be a string"],
    );
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"npx": {"package": "a@1.0.0", "registry": "x"}}"#,
        )),
        &["error schema a/agent.json:1:113 may not have the key `registry`"],
    );
    check(
        agent(&MANIFEST.replace(r#""name": "A""#, r#""name": """#)),
        &["error schema a/agent.json:1:21 `name` is empty"],
    );
}

#[test]
fn required_fields_and_types() {
    check(
        agent("[1]"),
        &["error wrong-type a/agent.json:1:1 the manifest is an array, not an object"],
    );
    check(
        agent(&MANIFEST.replace(r#""version": "1.0.0", "#, "")),
        &["error required-field a/agent.json:1:1 missing required field `version`"],
    );
    check(
        agent(&MANIFEST.replace(r#""version": "1.0.0""#, r#""version": 1"#)),
        &["error wrong-type a/agent.json:1:37 `version` is a number, not a string"],
    );
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"binary": {"darwin-aarch64": {"archive": "https://x/a.zip"}, "linux-x86_64": {"cmd": "a"}, "windows-x86_64": {"archive": "https://x/a.zip", "cmd": 1}}}"#,
        )),
        &[
            "error required-field a/agent.json:1:94 the darwin-aarch64 target has no `cmd`",
            "error required-field a/agent.json:1:144 the linux-x86_64 target has no `archive`",
            "error wrong-type a/agent.json:1:230 `cmd` of windows-x86_64 is a number",
        ],
    );
    check(
        agent(&with_distribution("1.0.0", r#"{"uvx": {"args": []}}"#)),
        &["error required-field a/agent.json:1:83 `distribution.uvx` has no `package`"],
    );
    check(
        agent(&with_distribution("1.0.0", r#"{"npx": "a@1.0.0"}"#)),
        &["error wrong-type a/agent.json:1:90 `distribution.npx` is a string, not an object"],
    );
}

#[test]
fn older_rfd_shape() {
    check(
        agent(&MANIFEST.replace(
            r#""name": "A","#,
            r#""name": "A", "homepage": "https://a.dev","#,
        )),
        &[
            "warning legacy-shape a/agent.json:1:26 `homepage` belongs to the RFD's older manifest shape: the CI accepts it",
        ],
    );
    // The RFD's own example: JSONC, dropped fields, targets directly under `distribution`, and
    // release URLs through /latest/ (not checked: they are not binary targets yet).
    let rfd = RFD_EXAMPLE.replace("\"someagent\"", "\"a\"");
    check(
        agent(&rfd),
        &[
            "error jsonc a/agent.json:1:1 JSONC",
            "warning legacy-shape a/agent.json:8:3 `schema_version`",
            "warning legacy-shape a/agent.json:10:3 `homepage`",
            "warning legacy-shape a/agent.json:14:3 `capabilities`",
            "warning legacy-shape a/agent.json:15:3 `auth`",
            "error legacy-shape a/agent.json:21:5 platform targets (darwin-aarch64, darwin-x86_64, linux-aarch64, linux-x86_64, windows-x86_64)",
        ],
    );
}

#[test]
fn fields_outside_the_format() {
    // The CI's schema leaves the top level open: such a field passes there and is published as
    // it is. A warning says so, naming the field meant when it is a near miss.
    let with = |field: &str| {
        MANIFEST.replace(
            r#""name": "A","#,
            &format!(r#""name": "A", "{field}": "x","#),
        )
    };
    let cases = [
        ("licence", "did you mean `license`?"),
        ("licenseUrl", "did you mean `license_url`?"),
        ("descripton", "did you mean `description`?"),
        ("repo", "did you mean `repository`?"),
        ("x-team", "remove `x-team`"),
    ];
    for (field, hint) in cases {
        let validation = validate(&agent(&with(field)));
        let found: Vec<(&str, &str, &str)> = validation
            .diagnostics
            .iter()
            .map(|d| (d.severity.as_str(), d.rule.as_str(), d.hint.as_str()))
            .collect();
        assert_eq!(found.len(), 1, "{field}: {found:?}");
        assert_eq!(
            (found[0].0, found[0].1),
            ("warning", "unknown-field"),
            "{field}"
        );
        assert!(found[0].2.starts_with(hint), "{field}: {}", found[0].2);
        let (built, _) = build(&agent(&with(field)), "https://x");
        assert!(
            built
                .expect("a warning publishes")
                .registry_json
                .contains(&format!("\"{field}\": \"x\"")),
            "{field} is published as it is"
        );
    }
}

#[test]
fn ids() {
    check(
        agent(&MANIFEST.replace(r#""id": "a""#, r#""id": "A_1""#)),
        &["error id-format a/agent.json:1:8 may only have lowercase letters, digits and -"],
    );
    check(
        agent(&MANIFEST.replace(r#""id": "a""#, r#""id": "1a""#)),
        &[
            // The schema's pattern says the same: reported once.
            "error id-format a/agent.json:1:8 must start with a letter",
        ],
    );
    check(
        agent(&MANIFEST.replace(r#""id": "a""#, r#""id": "b""#)),
        &["error id-folder-mismatch a/agent.json:1:8 `id` \"b\" differs from its folder name `a/`"],
    );
    check(
        registry(&[
            ("a/agent.json", MANIFEST.as_bytes()),
            ("a/icon.svg", ICON.as_bytes()),
            ("b/agent.json", MANIFEST.as_bytes()),
            ("b/icon.svg", ICON.as_bytes()),
        ]),
        &[
            "warning lookalike a/agent.json:1:21 b/ has the same `name`",
            "error id-folder-mismatch b/agent.json:1:8 differs from its folder name `b/`",
            "error id-duplicate b/agent.json:1:8 `id` \"a\" is already used by a/",
            "warning lookalike b/agent.json:1:21 a/ has the same `name`",
        ],
    );
}

/// Issue 13: an id too long to name the catalogue's files is an error, and every id hint names
/// a valid id (the old core suggestion for `1agent` was `1agent`).
#[test]
fn id_limits_and_suggestions() {
    let long = "a".repeat(129);
    let manifest = MANIFEST.replace(r#""id": "a""#, &format!(r#""id": "{long}""#));
    check(
        registry(&[
            (&format!("{long}/agent.json"), manifest.as_bytes()),
            (&format!("{long}/icon.svg"), ICON.as_bytes()),
        ]),
        &[&format!(
            "error id-too-long {long}/agent.json:1:8 is 129 bytes long, over the 128"
        )],
    );
    let limit = "a".repeat(128);
    let manifest = MANIFEST.replace(r#""id": "a""#, &format!(r#""id": "{limit}""#));
    check(
        registry(&[
            (&format!("{limit}/agent.json"), manifest.as_bytes()),
            (&format!("{limit}/icon.svg"), ICON.as_bytes()),
        ]),
        &[],
    );
    for id in [
        "1agent", "A_1", "../../..", "a%2Fb", "x?q=1", "Gémini", "-", "é",
    ] {
        let manifest = MANIFEST.replace(r#""id": "a""#, &format!(r#""id": "{id}""#));
        let validation = validate(&agent(&manifest));
        let hints: Vec<&str> = validation
            .diagnostics
            .iter()
            .filter(|d| d.rule == registry_validate::Rule::IdFormat)
            .map(|d| d.hint.as_str())
            .collect();
        assert_eq!(hints.len(), 1, "{id}: {:?}", validation.diagnostics);
        let suggested = hints[0].split('"').nth(1).expect("a quoted suggestion");
        assert!(registry_core::id::is_slug(suggested), "{id}: {}", hints[0]);
    }
}

/// Issue 13: a binary `cmd` that leaves the unpacked archive (`..`, absolute, a drive letter, a
/// `\` outside Windows) is an error; separators Windows reads are fine on Windows targets.
#[test]
fn cmds_stay_inside_the_archive() {
    let targets = |cmd: &str, windows_cmd: &str| {
        let cmd = serde_json::to_string(cmd).unwrap();
        let windows_cmd = serde_json::to_string(windows_cmd).unwrap();
        with_distribution(
            "1.0.0",
            &format!(
                r#"{{"binary": {{"darwin-aarch64": {{"archive": "https://x/a.zip", "cmd": {cmd}}}, "linux-x86_64": {{"archive": "https://x/a.zip", "cmd": "./a"}}, "windows-x86_64": {{"archive": "https://x/a.zip", "cmd": {windows_cmd}}}}}}}"#
            ),
        )
    };
    let table: [(&str, &str, &[&str]); 9] = [
        ("./bin/a", r"./bin\a.exe", &[]),
        ("a", r"pulumi\bin\pulumi.exe", &[]),
        (
            "../../../../.bashrc",
            "a.exe",
            &["error cmd-path a/agent.json:1:150 climbs out of the folder with `..`"],
        ),
        (
            "/usr/local/bin/a",
            "a.exe",
            &["error cmd-path a/agent.json:1:150 is an absolute path"],
        ),
        (
            "./a",
            r"C:\Tools\a.exe",
            &["error cmd-path a/agent.json:1:276 starts with a drive letter"],
        ),
        (
            "./a",
            r"\\server\share\a.exe",
            &["error cmd-path a/agent.json:1:276 is an absolute path"],
        ),
        (
            "./a",
            r"bin\..\..\a.exe",
            &["error cmd-path a/agent.json:1:276 climbs out"],
        ),
        (
            r"./bin\a",
            "a.exe",
            &["error cmd-path a/agent.json:1:150 has a backslash"],
        ),
        (
            "",
            "a.exe",
            &["error cmd-path a/agent.json:1:150 names no file"],
        ),
    ];
    for (cmd, windows_cmd, expect) in table {
        check(agent(&targets(cmd, windows_cmd)), expect);
    }
}

#[test]
fn versions() {
    check(
        agent(&with_distribution("1.2", r#"{"npx": {"package": "a"}}"#)),
        &["error version-format a/agent.json:1:37 `version` \"1.2\" is not a release version"],
    );
    check(
        agent(&with_distribution(
            "1.2.3-beta.1",
            r#"{"npx": {"package": "a"}}"#,
        )),
        &["error version-format a/agent.json:1:37 \"1.2.3-beta.1\""],
    );
}

#[test]
fn distributions() {
    check(
        agent(&with_distribution("1.0.0", "{}")),
        &["error distribution-empty a/agent.json:1:82 `distribution` is empty"],
    );
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"npx": {"package": "a@1.0.0"}, "docker": {"image": "a"}}"#,
        )),
        &[
            "error distribution-unknown-method a/agent.json:1:114 `distribution.docker` is not a distribution method",
        ],
    );
    check(
        agent(&with_distribution("1.0.0", r#"{"binary": {}}"#)),
        &["error binary-empty a/agent.json:1:93 `distribution.binary` is empty"],
    );
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"binary": {"darwin-arm64": {"archive": "https://x/a.zip", "cmd": "a"}}}"#,
        )),
        &[
            "warning missing-os-family a/agent.json:1:83 no build for darwin or linux or windows",
            "error unknown-platform a/agent.json:1:94 `darwin-arm64` is not a platform",
        ],
    );
    check(
        agent(&with_distribution(
            "1.0.0",
            r#"{"binary": {"darwin-aarch64": {"archive": "https://x/a.zip", "cmd": "a"}, "linux-x86_64": {"archive": "https://x/a.zip", "cmd": "a"}}}"#,
        )),
        &["warning missing-os-family a/agent.json:1:83 no build for windows"],
    );
}

#[test]
fn archives_and_versions_agree() {
    let binary = |version: &str, url: &str| {
        with_distribution(
            version,
            &format!(
                r#"{{"binary": {{"darwin-aarch64": {{"archive": "{url}", "cmd": "a"}}, "linux-x86_64": {{"archive": "https://x/a", "cmd": "a"}}, "windows-x86_64": {{"archive": "https://x/a", "cmd": "a"}}}}}}"#
            ),
        )
    };
    check(
        agent(&binary("1.0.0", "https://x/a-1.0.0.dmg")),
        &["error archive-installer a/agent.json:1:124 is a .dmg installer"],
    );
    check(
        agent(&binary("1.0.0", "https://x/a.AppImage?raw=1")),
        &["error archive-installer a/agent.json:1:124 is a .appimage installer"],
    );
    check(
        agent(&binary(
            "1.0.0",
            "https://github.com/o/a/releases/latest/download/a.zip",
        )),
        &["error latest-url a/agent.json:1:124 contains /latest/"],
    );
    check(
        agent(&binary(
            "1.0.0",
            "https://github.com/o/a/releases/download/v1.0.1/a.zip",
        )),
        &[
            "error version-mismatch a/agent.json:1:124 the darwin-aarch64 archive is version 1.0.1 (from the release path /download/v1.0.1/), but `version` is \"1.0.0\"",
        ],
    );
    check(
        agent(&binary(
            "1.0.0",
            "https://github.com/o/a/releases/download/v1.1/a.zip",
        )),
        &[
            "error version-mismatch a/agent.json:1:124 version 1.1 (from the release path /download/v1.1/, which the CI reads as 1.1.0)",
        ],
    );
    check(
        agent(&binary(
            "1.0.0.1",
            "https://github.com/o/a/releases/download/v1.0.0.1/a.zip",
        )),
        &["error version-mismatch a/agent.json:1:126 which the CI reads as 1.0.0"],
    );
    check(
        agent(&binary(
            "1.0.0",
            "https://registry.npmjs.org/a/-/a-0.9.0.tgz",
        )),
        &["error version-mismatch a/agent.json:1:124 from the npm tarball name a-0.9.0.tgz"],
    );
}

#[test]
fn packages_and_versions_agree() {
    let package = |method: &str, spec: &str| {
        agent(&with_distribution(
            "1.0.0",
            &format!(r#"{{"{method}": {{"package": "{spec}"}}}}"#),
        ))
    };
    check(package("npx", "a"), &[]);
    check(package("npx", "@s/a@1.0.0"), &[]);
    check(package("uvx", "a>=1.0.0"), &[]);
    check(package("uvx", "a@1.0.0"), &[]);
    check(
        package("npx", "@s/a@latest"),
        &["error latest-package a/agent.json:1:102 is pinned to @latest"],
    );
    check(
        package("uvx", "a@latest"),
        &["error latest-package a/agent.json:1:102 is pinned to @latest"],
    );
    check(
        package("npx", "@s/a@1.0.1"),
        &[
            "error version-mismatch a/agent.json:1:102 the npx package \"@s/a@1.0.1\" is version 1.0.1",
        ],
    );
    check(
        package("uvx", "a==0.9"),
        &["error version-mismatch a/agent.json:1:102 the uvx package \"a==0.9\" is version 0.9"],
    );
}

#[test]
fn icons_required_and_paired() {
    check(
        registry(&[("a/agent.json", MANIFEST.as_bytes())]),
        &["error icon-missing a/icon.svg missing icon.svg"],
    );
    let mut files = agent(MANIFEST);
    files.insert("a/icon-light.svg", ICON.as_bytes().to_vec());
    check(
        files.clone(),
        &["error icon-theme-pair a/icon-light.svg has no a/icon-dark.svg"],
    );
    files.insert("a/icon-dark.svg", r##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><path fill="#fff" d="M0 0h1v1z"/></svg>"##.as_bytes().to_vec());
    check(files, &[]);
}

#[test]
fn icon_structure() {
    check(
        icon(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\"><path fill=\"currentColor\">\n</svg>",
        ),
        &["error icon-xml a/icon.svg:2:1 not well-formed XML"],
    );
    check(
        registry(&[
            ("a/agent.json", MANIFEST.as_bytes()),
            ("a/icon.svg", b"<svg>\xfe</svg>"),
        ]),
        &["error icon-xml a/icon.svg:1:6 not UTF-8"],
    );
    check(
        icon(
            &ICON
                .replace("<path", "<!-- a --><path")
                .replace("</svg>", "<!-- b --></svg>"),
        ),
        &["error icon-comment a/icon.svg:1:84 the icon has 2 comments"],
    );
    check(
        icon(r#"<html xmlns="http://www.w3.org/2000/svg"><svg/></html>"#),
        &["error icon-root a/icon.svg:1:2 the root element is <html>, not <svg>"],
    );
    check(
        icon(&ICON.replace(r#" xmlns="http://www.w3.org/2000/svg""#, "")),
        &["warning icon-namespace a/icon.svg:1:2 has no xmlns"],
    );
    check(
        icon(&ICON.replace("<svg ", "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg ")),
        &[],
    );
}

#[test]
fn icon_sizes() {
    check(
        icon(&ICON.replace(r#"width="16" height="16""#, r#"width="24" height="24""#)),
        &[
            "error icon-size a/icon.svg:1:41 the icon is 24x24 (from width/height); the registry wants 16x16",
        ],
    );
    check(
        icon(&ICON.replace(r#"width="16""#, r#"width="14""#)),
        &["error icon-size a/icon.svg:1:41 the icon is 14x16 (from width/height), and not square"],
    );
    check(
        icon(&ICON.replace(r#" width="16" height="16" viewBox="0 0 16 16""#, "")),
        &["error icon-size a/icon.svg:1:2 no width/height and no viewBox"],
    );
    check(
        icon(&ICON.replace(
            r#" width="16" height="16" viewBox="0 0 16 16""#,
            r#" height="16" viewBox="0 0 32 32""#,
        )),
        &["error icon-size a/icon.svg:1:53 the icon is 32x32 (from viewBox)"],
    );
    // Units are stripped, and the viewBox may differ when width/height say 16.
    check(
        icon(&ICON.replace(
            r#"width="16" height="16" viewBox="0 0 16 16""#,
            r#"width="16px" height="16px" viewBox="0 0 48 48""#,
        )),
        &[],
    );
    check(icon(&ICON.replace(r#"width="16" height="16" "#, "")), &[]);
}

#[test]
fn icon_colours() {
    check(
        icon(&ICON.replace(r#"fill="currentColor""#, r##"fill="#000""##)),
        &[
            "error icon-no-current-color a/icon.svg:1:2 no fill or stroke of the icon is currentColor",
            "error icon-color a/icon.svg:1:96 hardcodes fill \"#000\" in an attribute",
        ],
    );
    check(
        icon(&ICON.replace(
            "<path ",
            r#"<rect style="opacity: .5; stroke: red" width="1" height="1"/><path "#,
        )),
        &["error icon-color a/icon.svg:1:97 hardcodes stroke \"red\" in a style attribute"],
    );
    check(
        icon(&ICON.replace("<path ", "<style>/* c */ .a { fill: blue !important } .b { stroke: currentColor; }</style><path ")),
        &["error icon-color a/icon.svg:1:84 hardcodes fill \"blue !important\" in a <style> block"],
    );
    check(
        icon(&ICON.replace(
            r#"fill="currentColor""#,
            r#"fill="CurrentColor" stroke="none""#,
        )),
        &[],
    );
    check(
        icon(&ICON.replace(r#" fill="currentColor""#, "")),
        &[
            "error icon-no-current-color a/icon.svg:1:2 no fill or stroke of the icon is currentColor",
        ],
    );
    // `color` is not a paint: as in the CI, only fill and stroke count as using currentColor.
    check(
        icon(&ICON.replace(
            r#"fill="currentColor""#,
            r#"fill="inherit" color="currentColor""#,
        )),
        &[
            "error icon-no-current-color a/icon.svg:1:2 no fill or stroke of the icon is currentColor",
        ],
    );
}

/// The rules each icon breaks, errors and warnings alike.
fn icon_rules(svg: Option<&str>) -> Vec<&'static str> {
    let mut files = registry(&[("a/agent.json", MANIFEST.as_bytes())]);
    if let Some(svg) = svg {
        files.insert("a/icon.svg", svg.as_bytes().to_vec());
    }
    let mut rules: Vec<&str> = validate(&files)
        .diagnostics
        .iter()
        .map(|d| d.rule.as_str())
        .collect();
    rules.sort_unstable();
    rules.dedup();
    rules
}

/// Every case of the registry CI's own icon tests (`TestValidateIconMonochrome` and
/// `TestValidateIcon` in `.github/workflows/tests/test_build_registry.py`), restated: the
/// verdict here is the CI's. The monochrome cases are sized 16x16, as the CI tests them apart
/// from the size rule.
#[test]
fn ci_icon_cases() {
    const NS: &str = r#"xmlns="http://www.w3.org/2000/svg""#;
    let sized = |body: &str| format!(r#"<svg {NS} width="16" height="16"{body}</svg>"#);
    let monochrome: [(&str, String, &[&str]); 15] = [
        (
            "fill currentColor",
            sized(r#"><path fill="currentColor" d="M0 0h16v16H0z"/>"#),
            &[],
        ),
        (
            "stroke currentColor",
            sized(r#"><line stroke="currentColor" x1="0" y1="0" x2="16" y2="16"/>"#),
            &[],
        ),
        (
            "fill on the root",
            sized(r#" fill="currentColor"><path d="M0 0h16v16H0z"/>"#),
            &[],
        ),
        (
            "fill none, stroke currentColor",
            sized(r#"><circle fill="none" stroke="currentColor" cx="8" cy="8" r="7"/>"#),
            &[],
        ),
        (
            "hex fill",
            sized(r##"><path fill="#FF0000" d="M0 0h16v16H0z"/>"##),
            &["icon-color", "icon-no-current-color"],
        ),
        (
            "named fill",
            sized(r#"><rect fill="red" width="16" height="16"/>"#),
            &["icon-color", "icon-no-current-color"],
        ),
        (
            "hex stroke",
            sized(r##"><line stroke="#000" x1="0" y1="0" x2="16" y2="16"/>"##),
            &["icon-color", "icon-no-current-color"],
        ),
        (
            "no paint at all",
            sized(r#"><path d="M0 0h16v16H0z"/>"#),
            &["icon-no-current-color"],
        ),
        (
            "inline style, hex",
            sized(r##"><path style="fill: #123456" d="M0 0h16v16H0z"/>"##),
            &["icon-color", "icon-no-current-color"],
        ),
        (
            "inline style, currentColor",
            sized(r#"><path style="fill: currentColor" d="M0 0h16v16H0z"/>"#),
            &[],
        ),
        (
            "<style>, hex",
            sized(r#"><style>.a { fill: #FF0000; }</style><path class="a" d="M0 0h16v16H0z"/>"#),
            &["icon-color", "icon-no-current-color"],
        ),
        (
            "<style>, currentColor",
            sized(
                r#"><style>.a { fill: currentColor; }</style><path class="a" d="M0 0h16v16H0z"/>"#,
            ),
            &[],
        ),
        (
            "mixed, fill none",
            sized(
                r#" fill="currentColor"><path d="M0 0h16v16H0z" fill-rule="nonzero"/><circle cx="8" cy="8" r="3"/><rect stroke="currentColor" fill="none" x="2" y="2" width="12" height="12"/>"#,
            ),
            &[],
        ),
        (
            "fill inherit",
            sized(r#" fill="currentColor"><g fill="inherit"><path d="M0 0z"/></g>"#),
            &[],
        ),
        (
            "color alone",
            sized(r#" color="currentColor"><path fill="inherit" d="M0 0z"/>"#),
            &["icon-no-current-color"],
        ),
    ];
    for (case, svg, expected) in &monochrome {
        assert_eq!(icon_rules(Some(svg)), *expected, "{case}: {svg}");
    }
    let path = r#"<path fill="currentColor" d="M0 0z"/>"#;
    let icon = |attributes: &str, inside: &str| format!("<svg {NS}{attributes}>{inside}</svg>");
    let whole: [(&str, Option<String>, &[&str]); 10] = [
        ("16x16", Some(icon(r#" width="16" height="16""#, path)), &[]),
        (
            "viewBox only",
            Some(icon(r#" viewBox="0 0 16 16""#, path)),
            &[],
        ),
        (
            "not square",
            Some(icon(r#" width="16" height="32""#, path)),
            &["icon-size"],
        ),
        (
            "24x24",
            Some(icon(r#" width="24" height="24""#, path)),
            &["icon-size"],
        ),
        ("no size", Some(icon("", path)), &["icon-size"]),
        ("not XML", Some("<not-closed>".to_owned()), &["icon-xml"]),
        (
            "not <svg>",
            Some("<div>hello</div>".to_owned()),
            &["icon-root"],
        ),
        ("no file", None, &["icon-missing"]),
        (
            "16px",
            Some(icon(r#" width="16px" height="16px""#, path)),
            &[],
        ),
        (
            "a comment",
            Some(icon(
                r#" width="16" height="16""#,
                &format!("<!-- a comment -->{path}"),
            )),
            &["icon-comment"],
        ),
    ];
    for (case, svg, expected) in &whole {
        assert_eq!(icon_rules(svg.as_deref()), *expected, "{case}: {svg:?}");
    }
}

#[test]
fn stricter_rules_say_the_ci_would_accept() {
    let script = validate(&icon(
        &ICON.replace("</svg>", "<script>alert(1)</script></svg>"),
    ));
    assert!(
        script.diagnostics[0]
            .message
            .ends_with("(the registry's CI accepts this; this tool does not: clients and catalogues draw icons inline in their pages, where this could run script or load other files)"),
        "{}",
        script.diagnostics[0].message
    );
    let cmd = validate(&agent(&with_distribution(
        "1.0.0",
        r#"{"binary": {"darwin-aarch64": {"archive": "https://x/a.zip", "cmd": "/usr/bin/a"}, "linux-x86_64": {"archive": "https://x/a.zip", "cmd": "./a"}, "windows-x86_64": {"archive": "https://x/a.zip", "cmd": "a.exe"}}}"#,
    )));
    assert_eq!(cmd.diagnostics.len(), 1, "{:?}", cmd.diagnostics);
    assert!(
        cmd.diagnostics[0]
            .message
            .contains("the registry's CI accepts this")
    );
    // The CI's own rules say nothing of the kind.
    let size = validate(&icon(&ICON.replace(
        r#"width="16" height="16" viewBox="0 0 16 16""#,
        r#"width="24" height="24""#,
    )));
    assert!(!size.diagnostics[0].message.contains("CI accepts"));
}

#[test]
fn unsafe_icons() {
    check(
        icon(&ICON.replace("</svg>", "<script>alert(1)</script></svg>")),
        &["error icon-script a/icon.svg:1:130 has a <script>"],
    );
    check(
        icon(&ICON.replace("<path ", r#"<path onclick="alert(1)" "#)),
        &["error icon-event-handler a/icon.svg:1:90 event handler `onclick`"],
    );
    check(
        icon(&ICON.replace("</svg>", "<foreignObject><div/></foreignObject></svg>")),
        &["error icon-foreign-object a/icon.svg:1:130 <foreignObject>"],
    );
    check(
        icon(&ICON.replace("</svg>", r#"<image href="https://x/a.png"/></svg>"#)),
        &["error icon-external-reference a/icon.svg:1:136 links to \"https://x/a.png\""],
    );
    check(
        icon(
            &ICON
                .replace(
                    "<svg ",
                    r#"<svg xmlns:xlink="http://www.w3.org/1999/xlink" "#,
                )
                .replace(
                    "</svg>",
                    r#"<use xlink:href="data:image/svg+xml,x"/></svg>"#,
                ),
        ),
        &["error icon-external-reference a/icon.svg:1:177 links to \"data:image/svg+xml,x\""],
    );
    check(
        icon(&ICON.replace("<path ", r#"<path clip-path="url(https://x/c.svg#a)" "#)),
        &[
            "error icon-external-reference a/icon.svg:1:90 `clip-path` references url(https://x/c.svg#a)",
        ],
    );
    check(
        icon(&ICON.replace(
            "<path ",
            r#"<style>@import "https://x/a.css";</style><path "#,
        )),
        &["error icon-external-reference a/icon.svg:1:84 has an @import"],
    );
    // Local references are fine.
    check(
        icon(&ICON.replace("<path ", r##"<defs><clipPath id="c"><rect width="16" height="16"/></clipPath></defs><use href="#c"/><path clip-path="url(#c)" "##)),
        &[],
    );
}

/// Issue 13: icons the validator accepted and that ran script on the site's origin, crashed a
/// tab, or loaded files past the checks.
#[test]
fn hostile_icons_of_the_issue() {
    let with_child = |child: &str| ICON.replace("</svg>", &format!("{child}</svg>"));
    // One 5,000-character entity referenced 20,000 times: 65 KB that a browser expands to 100 MB.
    let blow_up = format!(
        "<!DOCTYPE svg [<!ENTITY a \"{}\">]>{}",
        "x".repeat(5_000),
        with_child(&"&a;".repeat(20_000))
    );
    // Issue 14: one path of 880,000 segments.
    let huge_path = with_child(&format!("<path d=\"M0 0{}\"/>", "l1 1".repeat(880_000)));
    let deep = with_child(&format!("{}{}", "<g>".repeat(40), "</g>".repeat(40)));
    let wide = with_child(&"<rect/>".repeat(2_001));
    let long_path = with_child(&format!("<path d=\"M0 0{}\"/>", "h1".repeat(10_001)));
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "an entity spelling a <script>",
            format!(
                "<!DOCTYPE svg [<!ENTITY s \"&#60;script&#62;alert(1)&#60;/script&#62;\">]>{}",
                with_child("&s;")
            ),
            vec![
                "error icon-dtd a/icon.svg:1:1 declares entities",
                "error icon-xml a/icon.svg:1:201 unknown entity",
            ],
        ),
        (
            "the 65 KB entity blow-up",
            blow_up,
            vec![
                "error icon-dtd a/icon.svg:1:1 declares entities",
                "error icon-xml a/icon.svg:1:5160 unknown entity",
            ],
        ),
        (
            "an empty internal subset",
            format!("<!DOCTYPE svg []>{ICON}"),
            vec!["error icon-dtd a/icon.svg:1:1 declares entities"],
        ),
        (
            "<set> turning a link into script",
            with_child(
                r#"<a><set attributeName="href" to="javascript:alert(1)"/><rect width="16" height="16"/></a>"#,
            ),
            vec!["error icon-animation a/icon.svg:1:137 sets `href`, a link"],
        ),
        (
            "<animate> of xlink:href",
            with_child(
                r#"<a><animate attributeName="xlink:href" values="javascript:alert(1)"/></a>"#,
            ),
            vec!["error icon-animation a/icon.svg:1:141 sets `xlink:href`, a link"],
        ),
        (
            "<set> of an event handler",
            with_child(r#"<set attributeName="onclick" to="alert(1)"/>"#),
            vec!["error icon-animation a/icon.svg:1:134 sets `onclick`, an event handler"],
        ),
        (
            "a CSS escape spelling url( in a style attribute",
            ICON.replace("<path ", r#"<path style="mask: u\72l(https://x/m.svg)" "#),
            vec!["error icon-css-escape a/icon.svg:1:90 `style` has a CSS escape"],
        ),
        (
            "a CSS escape spelling @import",
            with_child(r#"<style>@\69mport "https://x/a.css";</style>"#),
            vec!["error icon-css-escape a/icon.svg:1:129 the <style> block has a CSS escape"],
        ),
        (
            "a CSS escape in a presentation attribute",
            ICON.replace("<path ", r#"<path clip-path="u\72l(https://x/c.svg#a)" "#),
            vec!["error icon-css-escape a/icon.svg:1:90 `clip-path` has a CSS escape"],
        ),
        (
            "image-set( in a <style> block",
            with_child(r#"<style>path{mask-image:image-set("https://x/a.png" 1x)}</style>"#),
            vec!["error icon-external-reference a/icon.svg:1:129 uses image-set("],
        ),
        (
            "-webkit-image-set( in a style attribute",
            ICON.replace(
                "<path ",
                r#"<path style="mask-image: -webkit-image-set('https://x/a.png' 1x)" "#,
            ),
            vec!["error icon-external-reference a/icon.svg:1:90 uses -webkit-image-set("],
        ),
        (
            "3.5 MB of path",
            huge_path,
            vec!["error icon-too-large a/icon.svg has 3520150 bytes, over the 65536"],
        ),
        (
            "40 levels of groups",
            deep,
            vec![
                "error icon-too-large a/icon.svg:1:2 has 33 levels of nesting or more, over the 32",
            ],
        ),
        (
            "2,001 elements",
            wide,
            vec!["error icon-too-large a/icon.svg:1:2 has 2001 elements or more, over the 2000"],
        ),
        (
            "10,007 path segments",
            long_path,
            vec![
                "error icon-too-large a/icon.svg:1:2 has 10007 path segments or more, over the 10000",
            ],
        ),
        // Near misses that must pass: harmless animations, comments that split no token, a
        // local image-set lookalike name.
        (
            "a DOCTYPE without entities",
            format!(
                "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">{ICON}"
            ),
            vec![],
        ),
        (
            "an animation of opacity",
            with_child(r#"<animate attributeName="opacity" values="0;1" dur="1s"/>"#),
            vec![],
        ),
        (
            "a comment inside a word is a space",
            with_child(r#"<style>@im/* x */port "a.css"; path{fill:currentColor}</style>"#),
            vec![],
        ),
    ];
    for (name, svg, expect) in cases {
        eprintln!("case: {name}");
        check(icon(&svg), &expect);
    }
}

/// A manifest confusable with another folder's entry is a warning on it; the original's folder,
/// the one with the plainer name or the id made of it, is not flagged.
#[test]
fn lookalikes_of_other_folders() {
    let manifest = |id: &str, name: &str, repository: &str| {
        MANIFEST
            .replace(r#""id": "a""#, &format!(r#""id": "{id}""#))
            .replace(
                r#""name": "A""#,
                &format!(r#""name": "{name}", "repository": "{repository}""#),
            )
    };
    let folders = |second: &str| {
        registry(&[
            (
                "gemini/agent.json",
                manifest(
                    "gemini",
                    "Gemini CLI",
                    "https://github.com/google/gemini-cli",
                )
                .as_bytes(),
            ),
            ("gemini/icon.svg", ICON.as_bytes()),
            ("gemini2/agent.json", second.as_bytes()),
            ("gemini2/icon.svg", ICON.as_bytes()),
        ])
    };
    check(
        folders(&manifest(
            "gemini2",
            "G\u{435}mini CLI",
            "https://github.com/m/g",
        )),
        &[
            "warning lookalike gemini2/agent.json:1:27 looks like \"Gemini CLI\", the name of gemini/",
            "warning lookalike gemini2/agent.json:1:27 mixes Latin and Cyrillic letters in \"G\u{435}mini\"",
        ],
    );
    check(
        folders(&manifest(
            "gemini2",
            "Gemini\u{200B} CLI",
            "https://\u{430}pple.com/",
        )),
        &[
            "warning lookalike gemini2/agent.json:1:27 gemini/ has the same `name`",
            "warning lookalike gemini2/agent.json:1:27 holds characters no one can see: U+200B",
            "warning lookalike gemini2/agent.json:1:56 the repository link shows \u{430}pple.com, which is not apple.com",
        ],
    );
    check(
        folders(&manifest("gemini2", "Gemini Pro", "https://github.com/m/g")),
        &[],
    );
}

#[test]
fn every_problem_of_every_entry() {
    let files = registry(&[
        (
            "a/agent.json",
            with_distribution("1.0", r#"{"npx": {"package": "a@latest"}}"#).as_bytes(),
        ),
        (
            "b/agent.json",
            MANIFEST.replace("\"a\"", "\"b\"").as_bytes(),
        ),
        ("b/icon.svg", ICON.replace("currentColor", "red").as_bytes()),
    ]);
    check(
        files,
        &[
            "error version-format a/agent.json:1:37 \"1.0\"",
            "error latest-package a/agent.json:1:100 @latest",
            "error icon-missing a/icon.svg missing icon.svg",
            "warning lookalike b/agent.json:1:21 a/ has the same `name`",
            "error icon-no-current-color b/icon.svg:1:2 currentColor",
            "error icon-color b/icon.svg:1:96 \"red\"",
        ],
    );
}

#[test]
fn remote_checks_name_each_archive_and_package() {
    let files = registry(&[
        (
            "a/agent.json",
            with_distribution(
                "1.0.0",
                r#"{"binary": {"linux-x86_64": {"archive": "https://x/a.tgz", "cmd": "a"}}, "npx": {"package": "@s/a@1.0.0"}, "uvx": {"package": "a[x]==1.0.0"}}"#,
            )
            .as_bytes(),
        ),
        ("a/icon.svg", ICON.as_bytes()),
    ]);
    let endpoints = Endpoints {
        npm: "http://127.0.0.1:9/npm/".to_owned(),
        pypi: "http://127.0.0.1:9/pypi".to_owned(),
    };
    let checks = validate(&files).remote_checks(&endpoints);
    let got: Vec<(&str, usize, usize)> = checks
        .iter()
        .map(|c| {
            let span = c.span.expect("a place");
            (c.url.as_str(), span.line, span.column)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("https://x/a.tgz", 1, 122),
            ("http://127.0.0.1:9/npm/@s/a", 1, 174),
            ("http://127.0.0.1:9/pypi/a[x]/json", 1, 208),
        ]
    );
    assert_eq!(
        checks[0].remote,
        Remote::Archive {
            platform: "linux-x86_64".to_owned()
        }
    );
    let failure = checks[1].failure("HTTP 404");
    assert_eq!(failure.rule.as_str(), "url-unreachable");
    assert_eq!(
        failure.message,
        "the npm package \"@s/a\" was not found (HTTP 404 from http://127.0.0.1:9/npm/@s/a)"
    );
    let refused = checks[0].refused("not https");
    assert_eq!(refused.rule.as_str(), "url-unreachable");
    assert_eq!(
        refused.message,
        "the linux-x86_64 archive https://x/a.tgz was not requested (not https)"
    );
}

/// As the CI, only the root `distribution` is probed: a `preview` block's packages are not.
#[test]
fn remote_checks_leave_the_preview_out() {
    let manifest = r#"{"id": "a", "name": "A", "version": "1.0.0", "description": "d",
        "distribution": {"npx": {"package": "a@1.0.0"}},
        "preview": {"version": "1.1.0-preview.1", "distribution": {
            "npx": {"package": "a-next@1.1.0-preview.1"}, "uvx": {"package": "a-py==1.1.0"}}}}"#;
    let checks = validate(&agent(manifest)).remote_checks(&Endpoints::default());
    let urls: Vec<&str> = checks.iter().map(|c| c.url.as_str()).collect();
    assert_eq!(urls, ["https://registry.npmjs.org/a"]);
}

#[test]
fn build_lists_agents_in_folder_order_and_no_extensions() {
    let files = registry(&[
        ("b/agent.json", br#"{"version": "2.0.0", "id": "b", "name": "B", "description": "d", "distribution": {"uvx": {"package": "b==2.0.0"}}}"#),
        ("b/icon.svg", ICON.as_bytes()),
        // The CI reads agent.json only: an extension's folder is skipped (a warning).
        ("a/extension.json", MANIFEST.as_bytes()),
        ("a/icon.svg", ICON.as_bytes()),
        // A field outside the format is published as it is (a warning), keys in written order.
        ("c/agent.json", br#"{"id": "c", "icon": "./icon.svg", "name": "C", "version": "1.0.0", "description": "d", "x-team": "core", "distribution": {"npx": {"package": "c"}}}"#),
        ("c/icon.svg", ICON.as_bytes()),
    ]);
    let (built, validation) = build(&files, "https://example.org/icons/");
    let rules: Vec<&str> = validation
        .diagnostics
        .iter()
        .map(|d| d.rule.as_str())
        .collect();
    assert_eq!(rules, ["manifest-conflict", "unknown-field"]);
    let built = built.expect("no errors");
    let expected = r#"{
  "version": "1.0.0",
  "agents": [
    {
      "version": "2.0.0",
      "id": "b",
      "name": "B",
      "description": "d",
      "distribution": {
        "uvx": {
          "package": "b==2.0.0"
        }
      },
      "icon": "https://example.org/icons/b.svg"
    },
    {
      "id": "c",
      "icon": "https://example.org/icons/c.svg",
      "name": "C",
      "version": "1.0.0",
      "description": "d",
      "x-team": "core",
      "distribution": {
        "npx": {
          "package": "c"
        }
      }
    }
  ],
  "extensions": []
}
"#;
    assert_eq!(built.registry_json, expected);
    assert_eq!((built.agents, built.extensions), (2, 0));
    let icons: Vec<(&str, &str, &str)> = built
        .icons
        .iter()
        .map(|i| (i.from.as_str(), i.to.as_str(), i.contents.as_str()))
        .collect();
    // The icon as written is `ICON` re-written by the sanitiser: the same text but a newline.
    let written = format!("{ICON}\n");
    assert_eq!(
        icons,
        [
            ("b/icon.svg", "b.svg", written.as_str()),
            ("c/icon.svg", "c.svg", written.as_str()),
        ]
    );
    let copies: Vec<(&str, &str)> = built
        .copies
        .iter()
        .map(|c| (c.from.as_str(), c.to.as_str()))
        .collect();
    assert_eq!(copies, [("agent.schema.json", "agent.schema.json")]);

    // A JSONC manifest fails, as it does in the CI: nothing to publish.
    let jsonc = MANIFEST.replace("}}}", "},},} // done");
    let (built, validation) = build(&agent(&jsonc), "https://x");
    assert!(built.is_none());
    assert_eq!(validation.diagnostics[0].rule.as_str(), "jsonc");

    // One error anywhere: nothing to publish.
    let (built, validation) = build(
        &agent(&MANIFEST.replace("1.0.0\", \"desc", "1.0\", \"desc")),
        "https://x",
    );
    assert!(built.is_none());
    assert!(validation.has_errors());
}
