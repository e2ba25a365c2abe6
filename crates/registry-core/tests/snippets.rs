//! Snippet generation: snapshots over every agent of both real registries, property tests that
//! parse the generated code back (POSIX words with `shell-words` and, when installed, real
//! shells; PowerShell, JSON, Lua and Emacs Lisp with small parsers of the syntax we emit), and
//! tables for the tricky manifest shapes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use proptest::prelude::*;
use registry_core::invisible;
use registry_core::snippets::{
    POSIX_PLACEHOLDER_ROOT, WINDOWS_PLACEHOLDER_ROOT, agent_shell_snippet, avante_snippet,
    binary_target, codecompanion_snippet, elisp_string, jetbrains_snippet, lua_string, posix_quote,
    powershell_quote, zed_custom_snippet, zed_registry_snippet,
};
use registry_core::{
    Arch, BinaryTarget, Client, ClientSnippet, CmdProblem, Distribution, Entry, InstallSnippet,
    Kind, LaunchCommand, Method, Note, NoteKind, Os, PackageTarget, Platform, PlatformKey, Refusal,
    Registry, Shell, client_snippets, launch_command, preferred_method, refusal, run_snippets,
};

// ---------------------------------------------------------------------------------------------
// Fixtures

/// A real registry fixture, loaded without errors.
fn dataset(text: &str) -> Registry {
    let loaded = registry_core::load(text).expect("the fixture is JSON");
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    loaded.registry
}

fn registry_2026() -> Registry {
    dataset(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026/dist/registry.json"
    )))
}

fn registry_2026_02() -> Registry {
    dataset(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026-02/dist/registry.json"
    )))
}

/// An agent with this id and distribution.
fn entry(id: &str, distribution: Distribution) -> Entry {
    Entry {
        kind: Kind::Agent,
        id: id.to_owned(),
        name: format!("{id} agent"),
        version: "1.0.0".to_owned(),
        description: String::new(),
        repository: None,
        website: None,
        authors: Vec::new(),
        license: None,
        license_url: None,
        icon: None,
        distribution,
        raw: String::new(),
        origin: Default::default(),
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn env_map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn package(package: &str, args: &[&str], env: &[(&str, &str)]) -> PackageTarget {
    PackageTarget {
        package: package.to_owned(),
        args: strings(args),
        env: env_map(env),
    }
}

fn npx_entry(id: &str, target: PackageTarget) -> Entry {
    entry(
        id,
        Distribution {
            npx: Some(target),
            ..Distribution::default()
        },
    )
}

fn uvx_entry(id: &str, target: PackageTarget) -> Entry {
    entry(
        id,
        Distribution {
            uvx: Some(target),
            ..Distribution::default()
        },
    )
}

fn binary_entry(id: &str, key: &str, target: BinaryTarget) -> Entry {
    let binary = [(PlatformKey(key.to_owned()), target)]
        .into_iter()
        .collect();
    entry(
        id,
        Distribution {
            binary,
            ..Distribution::default()
        },
    )
}

fn target(archive: &str, cmd: &str, args: &[&str], sha256: Option<&str>) -> BinaryTarget {
    BinaryTarget {
        archive: archive.to_owned(),
        cmd: cmd.to_owned(),
        args: strings(args),
        env: BTreeMap::new(),
        sha256: sha256.map(str::to_owned),
    }
}

fn platform(key: &str) -> Platform {
    Platform::parse(key).expect("a registry platform key")
}

const SHA: &str = "1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5";

// ---------------------------------------------------------------------------------------------
// Snapshots of every real agent

/// Platforms in display order, for the snapshots.
fn all_platforms() -> Vec<Platform> {
    Os::ALL
        .into_iter()
        .flat_map(|os| Arch::ALL.into_iter().map(move |arch| Platform { os, arch }))
        .collect()
}

/// The binary platform whose client configuration the snapshot shows: a POSIX one when there
/// is one, as most visitors use it (the Windows paths are in the launch-command list).
fn representative_platform(dist: &Distribution) -> Option<Platform> {
    let preferred = [
        "linux-x86_64",
        "darwin-aarch64",
        "linux-aarch64",
        "darwin-x86_64",
    ];
    preferred
        .iter()
        .map(|k| platform(k))
        .chain(all_platforms())
        .find(|p| binary_target(dist, *p).is_some())
}

fn render_notes(out: &mut String, notes: &[Note]) {
    for note in notes {
        writeln!(out, "- {}: {}", note.kind.as_str(), note.text).unwrap();
    }
}

fn render_snippet(out: &mut String, snippet: &InstallSnippet) {
    writeln!(out, "### {} ({})", snippet.title, snippet.shell.label()).unwrap();
    render_notes(out, &snippet.notes);
    writeln!(out, "```{}\n{}\n```", snippet.shell.as_str(), snippet.code).unwrap();
}

fn render_client(out: &mut String, snippet: &ClientSnippet) {
    writeln!(out, "### {} — {}", snippet.title, snippet.file).unwrap();
    render_notes(out, &snippet.notes);
    writeln!(out, "```{}\n{}\n```", snippet.language, snippet.code).unwrap();
}

fn render_launch(out: &mut String, label: &str, launch: &LaunchCommand) {
    writeln!(
        out,
        "- {label}: {:?} {:?} env {:?}",
        launch.command, launch.args, launch.env
    )
    .unwrap();
}

/// Everything the agent page shows for one entry, as readable text.
fn render_entry(entry: &Entry) -> String {
    let dist = &entry.distribution;
    let mut out = String::new();
    writeln!(out, "# {} — {} {}", entry.id, entry.name, entry.version).unwrap();
    let preferred: Vec<String> = std::iter::once(("no platform".to_owned(), None))
        .chain(all_platforms().into_iter().map(|p| (p.key(), Some(p))))
        .map(|(label, p)| {
            let method = preferred_method(dist, p).map_or("-", Method::as_str);
            format!("{label}={method}")
        })
        .collect();
    writeln!(out, "preferred: {}", preferred.join(" ")).unwrap();

    for method in dist.methods() {
        match method {
            Method::Binary => {
                for key in dist.binary.keys() {
                    writeln!(out, "\n## binary {key}").unwrap();
                    match key.platform() {
                        Some(p) => {
                            for snippet in run_snippets(entry, method, Some(p)) {
                                render_snippet(&mut out, &snippet);
                            }
                        }
                        None => writeln!(out, "(not a registry platform: no snippets)").unwrap(),
                    }
                }
            }
            Method::Npx | Method::Uvx => {
                writeln!(out, "\n## {}", method.as_str()).unwrap();
                for snippet in run_snippets(entry, method, None) {
                    render_snippet(&mut out, &snippet);
                }
            }
        }
    }

    writeln!(out, "\n## launch commands").unwrap();
    for method in dist.methods() {
        let platforms: Vec<Option<Platform>> = match method {
            Method::Binary => dist
                .binary
                .keys()
                .filter_map(PlatformKey::platform)
                .map(Some)
                .collect(),
            _ => vec![None, Some(platform("windows-x86_64"))],
        };
        for p in platforms {
            let label = format!(
                "{} {}",
                method.as_str(),
                p.map_or("(any)".to_owned(), Platform::key)
            );
            match launch_command(entry, method, p) {
                Some(launch) => render_launch(&mut out, &label, &launch),
                None => writeln!(out, "- {label}: none").unwrap(),
            }
        }
    }

    writeln!(out, "\n## Zed registry").unwrap();
    if let Some(snippet) = zed_registry_snippet(entry) {
        render_client(&mut out, &snippet);
    }
    for method in dist.methods() {
        let p = match method {
            Method::Binary => representative_platform(dist),
            _ => None,
        };
        writeln!(
            out,
            "\n## clients with {} {}",
            method.as_str(),
            p.map_or("(any)".to_owned(), Platform::key)
        )
        .unwrap();
        let Some(launch) = launch_command(entry, method, p) else {
            writeln!(out, "(no launch command)").unwrap();
            continue;
        };
        let os = p.map(|p| p.os);
        for snippet in [
            zed_custom_snippet(entry, &launch, os),
            jetbrains_snippet(entry, &launch, os),
            avante_snippet(entry, &launch, os),
            codecompanion_snippet(entry, &launch, os),
            agent_shell_snippet(entry, &launch, os),
        ] {
            render_client(&mut out, &snippet);
        }
    }
    out
}

fn snapshot_registry(folder: &str, registry: &Registry) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(format!("snapshots/{folder}"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for entry in &registry.entries {
            insta::assert_snapshot!(entry.id.clone(), render_entry(entry));
        }
    });
}

#[test]
fn every_agent_of_the_2026_registry() {
    let registry = registry_2026();
    assert_eq!(registry.entries.len(), 130);
    snapshot_registry("real-registry-2026", &registry);
}

#[test]
fn every_agent_of_the_2026_02_registry() {
    let registry = registry_2026_02();
    assert_eq!(registry.entries.len(), 11);
    snapshot_registry("real-registry-2026-02", &registry);
}

/// Invariants over all real agents, beyond what a reviewer reads in the snapshots.
#[test]
fn real_agents_have_snippets_for_every_offered_method_and_platform() {
    for registry in [registry_2026(), registry_2026_02()] {
        for entry in &registry.entries {
            let dist = &entry.distribution;
            assert!(preferred_method(dist, None).is_some(), "{}", entry.id);
            for method in dist.methods() {
                let platforms: Vec<Option<Platform>> = match method {
                    Method::Binary => dist.binary.keys().map(|k| k.platform()).collect(),
                    _ => vec![None],
                };
                for p in platforms {
                    let snippets = run_snippets(entry, method, p);
                    assert!(!snippets.is_empty(), "{} {method:?} {p:?}", entry.id);
                    for snippet in &snippets {
                        assert!(!snippet.code.ends_with('\n'), "{}", entry.id);
                        let kinds: Vec<NoteKind> = snippet.notes.iter().map(|n| n.kind).collect();
                        assert!(
                            kinds.is_sorted(),
                            "{} notes out of order: {kinds:?}",
                            entry.id
                        );
                    }
                    let launch = launch_command(entry, method, p).expect("a launch command");
                    let kinds: Vec<NoteKind> = launch.notes.iter().map(|n| n.kind).collect();
                    assert!(kinds.is_sorted(), "{} launch notes: {kinds:?}", entry.id);
                    for snippet in client_snippets(entry, method, p) {
                        if snippet.language == "json" {
                            let value: serde_json::Value =
                                serde_json::from_str(&snippet.code).expect("valid JSON");
                            if snippet.title.contains("registry") {
                                continue;
                            }
                            let server = &value["agent_servers"][&entry.name];
                            assert_eq!(server["command"], launch.command.as_str(), "{}", entry.id);
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tables: the tricky manifest shapes

/// `(title, code)` of each snippet, for exact comparisons.
fn codes(snippets: &[InstallSnippet]) -> Vec<(&str, &str)> {
    snippets
        .iter()
        .map(|s| (s.title.as_str(), s.code.as_str()))
        .collect()
}

fn has_note(notes: &[Note], kind: NoteKind, text: &str) -> bool {
    notes
        .iter()
        .any(|n| n.kind == kind && n.text.contains(text))
}

#[test]
fn binary_targets_become_install_and_run_steps() {
    struct Case {
        name: &'static str,
        key: &'static str,
        target: BinaryTarget,
        install: &'static str,
        run: &'static str,
    }
    let cases = [
        Case {
            name: "tar.gz with sha256 on Linux: sha256sum",
            key: "linux-x86_64",
            target: target(
                "https://h/r/v1/tool-linux.tar.gz",
                "./tool",
                &["acp"],
                Some(SHA),
            ),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o tool-linux.tar.gz https://h/r/v1/tool-linux.tar.gz &&\n",
                "  echo '1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5  tool-linux.tar.gz' | sha256sum -c - &&\n",
                "  tar -xzf tool-linux.tar.gz",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/tool\" acp",
        },
        Case {
            name: "nested cmd and .tbz2 on macOS: shasum",
            key: "darwin-aarch64",
            target: target(
                "https://h/tool.tbz2",
                "./bin/tool",
                &["serve", "--acp"],
                Some(SHA),
            ),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o tool.tbz2 https://h/tool.tbz2 &&\n",
                "  echo '1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5  tool.tbz2' | shasum -a 256 -c &&\n",
                "  tar -xjf tool.tbz2",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/bin/tool\" serve --acp",
        },
        Case {
            name: "zip with a query string, no sha256: the file name comes from the path only",
            key: "linux-aarch64",
            target: target("https://h/dl/tool.zip?sig=a&exp=1#x", "tool", &[], None),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o tool.zip 'https://h/dl/tool.zip?sig=a&exp=1#x' &&\n",
                "  unzip -o tool.zip &&\n",
                "  chmod +x tool",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/tool\"",
        },
        Case {
            name: "unknown extension: a raw binary saved under cmd's name",
            key: "linux-x86_64",
            target: target("https://h/dl/raxol_cli_linux", "raxol", &["acp"], Some(SHA)),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o raxol.download https://h/dl/raxol_cli_linux &&\n",
                "  echo '1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5  raxol.download' | sha256sum -c - &&\n",
                "  chmod +x raxol.download &&\n",
                "  mv -f raxol.download raxol",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/raxol\" acp",
        },
        Case {
            name: "nested raw binary: its folder is created first",
            key: "darwin-x86_64",
            target: target("https://h/tool-darwin", "./bin/tool", &[], None),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  mkdir -p bin &&\n",
                "  curl -fL -o bin/tool https://h/tool-darwin &&\n",
                "  chmod +x bin/tool",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/bin/tool\"",
        },
        Case {
            name: "percent-encoded URL: decoded file name, URL kept as written",
            key: "linux-x86_64",
            target: target(
                "https://h/1.1%2B2/coco-1.1%2B2-linux.tar.gz",
                "./coco-1.1+2-linux/cortex",
                &["acp"],
                None,
            ),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o coco-1.1+2-linux.tar.gz https://h/1.1%2B2/coco-1.1%2B2-linux.tar.gz &&\n",
                "  tar -xzf coco-1.1+2-linux.tar.gz",
            ),
            run: "\"$HOME/.local/share/acp-agents/x/coco-1.1+2-linux/cortex\" acp",
        },
        Case {
            name: "a file name needing care falls back to archive.<ext>",
            key: "linux-x86_64",
            target: target(
                "https://h/it's%20here.tar.xz",
                "./it's here/t",
                &["a b"],
                None,
            ),
            install: concat!(
                "# The install folder: change it here and in the run command if you like.\n",
                "dir=\"$HOME/.local/share/acp-agents/x\"\n",
                "mkdir -p \"$dir\" && cd \"$dir\" &&\n",
                "  curl -fL -o archive.tar.xz 'https://h/it'\\''s%20here.tar.xz' &&\n",
                "  tar -xJf archive.tar.xz",
            ),
            run: "\"$HOME\"/'.local/share/acp-agents/x/it'\\''s here/t' 'a b'",
        },
        Case {
            name: "Windows backslash cmd in a zip, with sha256",
            key: "windows-x86_64",
            target: target(
                "https://h/devin-x86_64-pc-windows.zip",
                "./bin\\devin.exe",
                &["acp"],
                Some(SHA),
            ),
            install: concat!(
                "& {\n",
                "  $ErrorActionPreference = 'Stop'\n",
                "  $ProgressPreference = 'SilentlyContinue'\n",
                "  # The install folder: change it here and in the run command if you like.\n",
                "  $dir = Join-Path $env:LOCALAPPDATA 'acp-agents\\x'\n",
                "  New-Item -ItemType Directory -Force -Path $dir | Out-Null\n",
                "  Set-Location -LiteralPath $dir\n",
                "  Invoke-WebRequest -UseBasicParsing -Uri 'https://h/devin-x86_64-pc-windows.zip' -OutFile 'devin-x86_64-pc-windows.zip'\n",
                "  if ((Get-FileHash -Algorithm SHA256 -LiteralPath 'devin-x86_64-pc-windows.zip').Hash -ne '1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5') { throw 'SHA-256 mismatch: devin-x86_64-pc-windows.zip' }\n",
                "  Expand-Archive -Force -LiteralPath 'devin-x86_64-pc-windows.zip' -DestinationPath .\n",
                "}",
            ),
            run: "& (Join-Path $env:LOCALAPPDATA 'acp-agents\\x\\bin\\devin.exe') acp",
        },
        Case {
            name: "Windows tar.gz and a nested backslash cmd without ./",
            key: "windows-aarch64",
            target: target(
                "https://h/pool-windows-arm64.tar.gz",
                "pulumi\\bin\\pulumi.exe",
                &["neo", "acp"],
                None,
            ),
            install: concat!(
                "& {\n",
                "  $ErrorActionPreference = 'Stop'\n",
                "  $ProgressPreference = 'SilentlyContinue'\n",
                "  # The install folder: change it here and in the run command if you like.\n",
                "  $dir = Join-Path $env:LOCALAPPDATA 'acp-agents\\x'\n",
                "  New-Item -ItemType Directory -Force -Path $dir | Out-Null\n",
                "  Set-Location -LiteralPath $dir\n",
                "  Invoke-WebRequest -UseBasicParsing -Uri 'https://h/pool-windows-arm64.tar.gz' -OutFile 'pool-windows-arm64.tar.gz'\n",
                "  tar -xzf 'pool-windows-arm64.tar.gz'; if ($LASTEXITCODE) { throw 'tar failed' }\n",
                "}",
            ),
            run: "& (Join-Path $env:LOCALAPPDATA 'acp-agents\\x\\pulumi\\bin\\pulumi.exe') neo acp",
        },
        Case {
            name: "Windows raw .exe",
            key: "windows-x86_64",
            target: target(
                "https://h/cli_windows_x64.exe",
                "./cli_windows_x64.exe",
                &["acp", "--print"],
                None,
            ),
            install: concat!(
                "& {\n",
                "  $ErrorActionPreference = 'Stop'\n",
                "  $ProgressPreference = 'SilentlyContinue'\n",
                "  # The install folder: change it here and in the run command if you like.\n",
                "  $dir = Join-Path $env:LOCALAPPDATA 'acp-agents\\x'\n",
                "  New-Item -ItemType Directory -Force -Path $dir | Out-Null\n",
                "  Set-Location -LiteralPath $dir\n",
                "  Invoke-WebRequest -UseBasicParsing -Uri 'https://h/cli_windows_x64.exe' -OutFile 'cli_windows_x64.exe'\n",
                "}",
            ),
            run: "& (Join-Path $env:LOCALAPPDATA 'acp-agents\\x\\cli_windows_x64.exe') acp --print",
        },
        Case {
            name: "Windows nested raw .exe with sha256: verified before it takes its name",
            key: "windows-aarch64",
            target: target(
                "https://h/tool-arm64.exe?dl=1",
                "./bin/tool.exe",
                &[],
                Some(SHA),
            ),
            install: concat!(
                "& {\n",
                "  $ErrorActionPreference = 'Stop'\n",
                "  $ProgressPreference = 'SilentlyContinue'\n",
                "  # The install folder: change it here and in the run command if you like.\n",
                "  $dir = Join-Path $env:LOCALAPPDATA 'acp-agents\\x'\n",
                "  New-Item -ItemType Directory -Force -Path $dir | Out-Null\n",
                "  Set-Location -LiteralPath $dir\n",
                "  New-Item -ItemType Directory -Force -Path 'bin' | Out-Null\n",
                "  Invoke-WebRequest -UseBasicParsing -Uri 'https://h/tool-arm64.exe?dl=1' -OutFile 'bin\\tool.exe.download'\n",
                "  if ((Get-FileHash -Algorithm SHA256 -LiteralPath 'bin\\tool.exe.download').Hash -ne '1e233db3b65adc1e2d924608c804a7e4b0cf727a83130212644d070888bbded5') { throw 'SHA-256 mismatch: bin\\tool.exe' }\n",
                "  Move-Item -Force -LiteralPath 'bin\\tool.exe.download' -Destination 'bin\\tool.exe'\n",
                "}",
            ),
            run: "& (Join-Path $env:LOCALAPPDATA 'acp-agents\\x\\bin\\tool.exe')",
        },
    ];
    for case in cases {
        let entry = binary_entry("x", case.key, case.target);
        let snippets = run_snippets(&entry, Method::Binary, Some(platform(case.key)));
        assert_eq!(
            codes(&snippets),
            [("Install", case.install), ("Run", case.run)],
            "{}",
            case.name
        );
        let shell = Shell::for_os(platform(case.key).os);
        assert!(snippets.iter().all(|s| s.shell == shell), "{}", case.name);
    }
}

#[test]
fn install_notes_say_what_is_needed_and_what_is_not_verified() {
    for (key, archive, sha, requirement, unverified) in [
        (
            "linux-x86_64",
            "https://h/a.tar.gz",
            Some(SHA),
            Some("curl and tar"),
            false,
        ),
        (
            "linux-x86_64",
            "https://h/a.zip",
            None,
            Some("curl and unzip"),
            true,
        ),
        ("darwin-aarch64", "https://h/a", None, Some("curl"), true),
        ("windows-x86_64", "https://h/a.zip", Some(SHA), None, false),
        (
            "windows-x86_64",
            "https://h/a.tar.bz2",
            Some(SHA),
            Some("tar (built into Windows 10 and later)"),
            false,
        ),
    ] {
        let entry = binary_entry("x", key, target(archive, "./a", &[], sha));
        let install = &run_snippets(&entry, Method::Binary, Some(platform(key)))[0];
        let requirements: Vec<&str> = install
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::Requirement)
            .map(|n| n.text.as_str())
            .collect();
        assert_eq!(
            requirements,
            requirement.into_iter().collect::<Vec<_>>(),
            "{key} {archive}"
        );
        assert_eq!(
            has_note(&install.notes, NoteKind::Caveat, "publishes no SHA-256"),
            unverified,
            "{key} {archive}"
        );
    }

    let entry = binary_entry(
        "x",
        "linux-x86_64",
        target("https://h/a.zip", "./a", &[], Some("not-a-hash")),
    );
    let install = &run_snippets(&entry, Method::Binary, Some(platform("linux-x86_64")))[0];
    assert!(has_note(
        &install.notes,
        NoteKind::Caveat,
        "not 64 hexadecimal digits"
    ));
}

#[test]
fn package_snippets_quote_for_each_shell() {
    struct Case {
        name: &'static str,
        entry: Entry,
        method: Method,
        posix: &'static str,
        powershell: &'static str,
    }
    let cases = [
        Case {
            name: "npx with a scoped package",
            entry: npx_entry(
                "a",
                package(
                    "@augmentcode/auggie@0.21.0",
                    &["--acp"],
                    &[("AUGMENT_DISABLE_AUTO_UPDATE", "1")],
                ),
            ),
            method: Method::Npx,
            posix: "AUGMENT_DISABLE_AUTO_UPDATE=1 npx -y @augmentcode/auggie@0.21.0 --acp",
            powershell: "$env:AUGMENT_DISABLE_AUTO_UPDATE = '1'\nnpx -y '@augmentcode/auggie@0.21.0' --acp",
        },
        Case {
            name: "uvx with a pinned version and a colon argument",
            entry: uvx_entry(
                "b",
                package(
                    "fast-agent-acp==0.4.1",
                    &["-x", "developer:general"],
                    &[("FAST_AGENT_MODEL", "codexplan")],
                ),
            ),
            method: Method::Uvx,
            posix: "FAST_AGENT_MODEL=codexplan uvx fast-agent-acp==0.4.1 -x developer:general",
            powershell: "$env:FAST_AGENT_MODEL = 'codexplan'\nuvx 'fast-agent-acp==0.4.1' -x 'developer:general'",
        },
        Case {
            name: "an empty value is still set, as empty",
            entry: npx_entry(
                "c",
                package(
                    "@stdiobus/workers-registry",
                    &["openai-agent"],
                    &[("OPENAI_BASE_URL", ""), ("OPENAI_MODEL", "gpt-5.1")],
                ),
            ),
            method: Method::Npx,
            posix: "OPENAI_BASE_URL='' OPENAI_MODEL=gpt-5.1 npx -y @stdiobus/workers-registry openai-agent",
            powershell: "$env:OPENAI_BASE_URL = ''\n$env:OPENAI_MODEL = 'gpt-5.1'\nnpx -y '@stdiobus/workers-registry' openai-agent",
        },
        Case {
            name: "a name with a dash goes through env and ${env:…}",
            entry: npx_entry("d", package("p", &[], &[("MY-VAR", "x y"), ("OK", "1")])),
            method: Method::Npx,
            posix: "env 'MY-VAR=x y' OK=1 npx -y p",
            powershell: "${env:MY-VAR} = 'x y'\n$env:OK = '1'\nnpx -y p",
        },
        Case {
            name: "a name bash keeps read-only goes through env",
            entry: npx_entry("e", package("p", &[], &[("UID", "0")])),
            method: Method::Npx,
            posix: "env UID=0 npx -y p",
            powershell: "$env:UID = '0'\nnpx -y p",
        },
        Case {
            name: "a name starting with a dash ends env's options first",
            entry: npx_entry("f", package("p", &[], &[("-n", "1")])),
            method: Method::Npx,
            posix: "env -- -n=1 npx -y p",
            powershell: "${env:-n} = '1'\nnpx -y p",
        },
        Case {
            name: "shell metacharacters, quotes and a newline",
            entry: npx_entry(
                "g",
                package(
                    "p",
                    &[
                        "it's", "$HOME", "a;b|c&d", "*", "", "‘x’", "l1\nl2", "=x", "#",
                    ],
                    &[],
                ),
            ),
            method: Method::Npx,
            posix: "npx -y p 'it'\\''s' '$HOME' 'a;b|c&d' '*' '' '‘x’' $'l1\\nl2' '=x' '#'",
            powershell: "npx -y p 'it''s' '$HOME' 'a;b|c&d' '*' '' '‘‘x’’' \"l1$([char]0x000A)l2\" '=x' '#'",
        },
    ];
    for case in cases {
        let snippets = run_snippets(&case.entry, case.method, None);
        assert_eq!(
            codes(&snippets),
            [("Run", case.posix), ("Run", case.powershell)],
            "{}",
            case.name
        );
        assert_eq!(snippets[0].shell, Shell::Posix);
        assert_eq!(snippets[1].shell, Shell::PowerShell);
    }
}

#[test]
fn package_snippets_follow_the_visitors_platform() {
    let entry = npx_entry("a", package("p", &["--acp"], &[]));
    for (key, shell) in [
        ("darwin-aarch64", Shell::Posix),
        ("linux-x86_64", Shell::Posix),
        ("windows-x86_64", Shell::PowerShell),
    ] {
        let snippets = run_snippets(&entry, Method::Npx, Some(platform(key)));
        assert_eq!(
            snippets.iter().map(|s| s.shell).collect::<Vec<_>>(),
            [shell],
            "{key}"
        );
    }
}

#[test]
fn package_notes_name_requirements_fill_ins_and_caveats() {
    let entry = npx_entry(
        "a",
        package("p", &["say \"hi\""], &[("OPENAI_BASE_URL", "")]),
    );
    let snippets = run_snippets(&entry, Method::Npx, None);
    let [posix, powershell] = &snippets[..] else {
        panic!("two shells")
    };
    assert_eq!(posix.notes[0], Note::requirement("Node.js (npx)"));
    assert!(has_note(
        &posix.notes,
        NoteKind::FillIn,
        "Set OPENAI_BASE_URL before running"
    ));
    assert!(!has_note(&posix.notes, NoteKind::Caveat, "PowerShell 7.3"));
    assert!(has_note(
        &powershell.notes,
        NoteKind::FillIn,
        "Set OPENAI_BASE_URL before running"
    ));
    assert!(has_note(
        &powershell.notes,
        NoteKind::Caveat,
        "PowerShell 7.3"
    ));
    assert!(has_note(
        &powershell.notes,
        NoteKind::Caveat,
        "npx.cmd instead of npx"
    ));

    let entry = uvx_entry("a", package("p", &[""], &[]));
    let snippets = run_snippets(&entry, Method::Uvx, None);
    let [posix, powershell] = &snippets[..] else {
        panic!("two shells")
    };
    assert_eq!(posix.notes, [Note::requirement("uv (uvx)")]);
    assert!(has_note(
        &powershell.notes,
        NoteKind::Caveat,
        "PowerShell 7.3"
    ));
}

#[test]
fn nothing_to_run_gives_no_snippets() {
    let npx_only = npx_entry("a", package("p", &[], &[]));
    let windows_only = binary_entry(
        "b",
        "windows-x86_64",
        target("https://h/a.zip", "a.exe", &[], None),
    );
    for (entry, method, p) in [
        (&npx_only, Method::Uvx, None),
        (&npx_only, Method::Binary, Some(platform("linux-x86_64"))),
        (&windows_only, Method::Binary, None),
        (
            &windows_only,
            Method::Binary,
            Some(platform("linux-x86_64")),
        ),
    ] {
        assert!(
            run_snippets(entry, method, p).is_empty(),
            "{} {method:?} {p:?}",
            entry.id
        );
        assert_eq!(
            launch_command(entry, method, p),
            None,
            "{} {method:?} {p:?}",
            entry.id
        );
    }
    let unknown_key = binary_entry(
        "c",
        "linux-arm64",
        target("https://h/a.zip", "a", &[], None),
    );
    assert!(
        run_snippets(
            &unknown_key,
            Method::Binary,
            Some(platform("linux-aarch64"))
        )
        .is_empty()
    );
}

/// Issue 13: no step ever writes or runs outside the agent's install folder. Before, `cmd:
/// "../../../../.bashrc"` with a raw download gave `curl … -o ../../../../.bashrc.download && mv
/// -f … ../../../../.bashrc` and ran it, and the id `../../..` made the install folder `$HOME`.
#[test]
fn steps_that_would_leave_the_install_folder_are_refused_with_a_reason() {
    let cases = [
        (
            "x",
            "linux-x86_64",
            "../../../../.bashrc",
            Some(CmdProblem::Parent),
        ),
        (
            "x",
            "darwin-aarch64",
            "bin/../../x",
            Some(CmdProblem::Parent),
        ),
        (
            "x",
            "windows-x86_64",
            r"..\..\x.exe",
            Some(CmdProblem::Parent),
        ),
        (
            "x",
            "linux-x86_64",
            "/usr/bin/agent",
            Some(CmdProblem::Absolute),
        ),
        (
            "x",
            "windows-x86_64",
            r"C:\Tools\agent.exe",
            Some(CmdProblem::Drive),
        ),
        (
            "x",
            "windows-x86_64",
            r"\\server\share\a.exe",
            Some(CmdProblem::Absolute),
        ),
        ("x", "linux-x86_64", "./", Some(CmdProblem::Empty)),
        ("../../..", "linux-x86_64", "./agent", None),
        ("a/b", "windows-x86_64", "./agent.exe", None),
        (".hidden", "darwin-x86_64", "./agent", None),
    ];
    for (id, key, cmd, problem) in cases {
        for sha in [None, Some(SHA)] {
            let entry = binary_entry(id, key, target("https://h/raw-download", cmd, &[], sha));
            let p = Some(platform(key));
            assert_eq!(run_snippets(&entry, Method::Binary, p), [], "{id} {cmd}");
            assert_eq!(
                launch_command(&entry, Method::Binary, p),
                None,
                "{id} {cmd}"
            );
            let clients: Vec<String> = client_snippets(&entry, Method::Binary, p)
                .into_iter()
                .map(|c| c.title)
                .collect();
            assert_eq!(
                clients,
                ["Zed: install from the ACP registry"],
                "{id} {cmd}"
            );
            let refusal = refusal(&entry, Method::Binary, p).expect("a reason");
            let expected = match problem {
                Some(problem) => Refusal::Cmd {
                    cmd: cmd.to_owned(),
                    problem,
                },
                None => Refusal::Id { id: id.to_owned() },
            };
            assert_eq!(refusal, expected, "{id} {cmd}");
            let text = refusal.to_string();
            assert!(text.contains("outside"), "{text}");
            assert!(
                text.contains(if problem.is_some() { cmd } else { id }),
                "{text}"
            );
        }
    }

    // Nothing to refuse: an offered method, another method, no target for the platform.
    let fine = binary_entry(
        "x",
        "linux-x86_64",
        target("https://h/a", "./bin/a", &[], None),
    );
    let linux = Some(platform("linux-x86_64"));
    assert_eq!(refusal(&fine, Method::Binary, linux), None);
    assert_eq!(run_snippets(&fine, Method::Binary, linux).len(), 2);
    let bad = binary_entry(
        "x",
        "linux-x86_64",
        target("https://h/a", "../a", &[], None),
    );
    assert_eq!(refusal(&bad, Method::Npx, linux), None);
    assert_eq!(refusal(&bad, Method::Binary, None), None);
    assert_eq!(
        refusal(&bad, Method::Binary, Some(platform("darwin-x86_64"))),
        None
    );
}

#[test]
fn launch_commands_are_exact_argv_and_env() {
    let env = [("A", "1"), ("EMPTY", "")];
    for (name, entry, method, p, command, args) in [
        (
            "npx",
            npx_entry("a", package("@s/p@1", &["--acp"], &env)),
            Method::Npx,
            None,
            "npx".to_owned(),
            strings(&["-y", "@s/p@1", "--acp"]),
        ),
        (
            "npx on Windows",
            npx_entry("a", package("@s/p@1", &["--acp"], &env)),
            Method::Npx,
            Some("windows-x86_64"),
            "npx.cmd".to_owned(),
            strings(&["-y", "@s/p@1", "--acp"]),
        ),
        (
            "uvx on Windows",
            uvx_entry("a", package("p==1", &[], &env)),
            Method::Uvx,
            Some("windows-aarch64"),
            "uvx".to_owned(),
            strings(&["p==1"]),
        ),
        (
            "nested binary",
            binary_entry(
                "tool",
                "darwin-aarch64",
                BinaryTarget {
                    env: env_map(&env),
                    ..target("https://h/a.tar.gz", "./bin/tool", &["acp"], None)
                },
            ),
            Method::Binary,
            Some("darwin-aarch64"),
            format!("{POSIX_PLACEHOLDER_ROOT}/tool/bin/tool"),
            strings(&["acp"]),
        ),
        (
            "Windows backslash binary",
            binary_entry(
                "devin",
                "windows-x86_64",
                BinaryTarget {
                    env: env_map(&env),
                    ..target("https://h/a.zip", "./bin\\devin.exe", &["acp"], None)
                },
            ),
            Method::Binary,
            Some("windows-x86_64"),
            format!("{WINDOWS_PLACEHOLDER_ROOT}\\devin\\bin\\devin.exe"),
            strings(&["acp"]),
        ),
    ] {
        let launch = launch_command(&entry, method, p.map(platform)).expect(name);
        assert_eq!(
            (launch.command.as_str(), &launch.args),
            (command.as_str(), &args),
            "{name}"
        );
        assert_eq!(launch.env, env_map(&env), "{name}");
        assert!(
            has_note(&launch.notes, NoteKind::FillIn, "Set EMPTY before running"),
            "{name}"
        );
        if method == Method::Binary {
            assert!(
                has_note(
                    &launch.notes,
                    NoteKind::FillIn,
                    "absolute path of the install folder"
                ),
                "{name}"
            );
        }
    }
}

#[test]
fn npx_cmd_on_windows_warns_about_batch_file_arguments() {
    let entry = npx_entry("a", package("p", &["", "say \"hi\""], &[("KEY", "")]));
    let launch = launch_command(&entry, Method::Npx, Some(platform("windows-x86_64"))).unwrap();
    let kinds: Vec<NoteKind> = launch.notes.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [NoteKind::Requirement, NoteKind::FillIn, NoteKind::Caveat]
    );
    assert!(has_note(
        &launch.notes,
        NoteKind::Caveat,
        "npx.cmd is a batch file"
    ));
    let posix = launch_command(&entry, Method::Npx, None).unwrap();
    assert!(!has_note(&posix.notes, NoteKind::Caveat, "batch file"));
}

#[test]
fn preferred_method_favours_a_native_binary_then_npx_then_uvx() {
    let linux = target("https://h/a.tar.gz", "./a", &[], None);
    let binary_and_npx = Distribution {
        binary: [(PlatformKey("linux-x86_64".to_owned()), linux.clone())]
            .into_iter()
            .collect(),
        npx: Some(package("p", &[], &[])),
        ..Distribution::default()
    };
    let binary_only = Distribution {
        binary: [(PlatformKey("linux-x86_64".to_owned()), linux)]
            .into_iter()
            .collect(),
        ..Distribution::default()
    };
    let both_packages = Distribution {
        npx: Some(package("p", &[], &[])),
        uvx: Some(package("q", &[], &[])),
        ..Distribution::default()
    };
    let uvx_only = Distribution {
        uvx: Some(package("q", &[], &[])),
        ..Distribution::default()
    };
    for (name, dist, visitor, expected) in [
        (
            "native binary",
            &binary_and_npx,
            Some("linux-x86_64"),
            Some(Method::Binary),
        ),
        (
            "no binary for the visitor",
            &binary_and_npx,
            Some("darwin-aarch64"),
            Some(Method::Npx),
        ),
        ("unknown visitor", &binary_and_npx, None, Some(Method::Npx)),
        (
            "binary for another platform only",
            &binary_only,
            Some("windows-x86_64"),
            Some(Method::Binary),
        ),
        (
            "npx before uvx",
            &both_packages,
            Some("linux-x86_64"),
            Some(Method::Npx),
        ),
        ("uvx", &uvx_only, None, Some(Method::Uvx)),
        ("nothing", &Distribution::default(), None, None),
    ] {
        assert_eq!(
            preferred_method(dist, visitor.map(platform)),
            expected,
            "{name}"
        );
    }
}

#[test]
fn client_snippets_come_in_order_with_zed_registry_first() {
    let entry = npx_entry(
        "auggie",
        package(
            "@augmentcode/auggie@0.21.0",
            &["--acp"],
            &[("AUGMENT_DISABLE_AUTO_UPDATE", "1")],
        ),
    );
    let snippets = client_snippets(&entry, Method::Npx, None);
    let clients: Vec<Client> = snippets.iter().map(|s| s.client).collect();
    assert_eq!(
        clients,
        [
            Client::Zed,
            Client::Zed,
            Client::JetBrains,
            Client::Avante,
            Client::CodeCompanion,
            Client::AgentShell
        ]
    );
    assert_eq!(
        snippets[0].code,
        "{\n  \"agent_servers\": {\n    \"auggie\": {\n      \"type\": \"registry\"\n    }\n  }\n}"
    );
    assert_eq!(
        snippets[1].code,
        concat!(
            "{\n",
            "  \"agent_servers\": {\n",
            "    \"auggie agent\": {\n",
            "      \"type\": \"custom\",\n",
            "      \"command\": \"npx\",\n",
            "      \"args\": [\n",
            "        \"-y\",\n",
            "        \"@augmentcode/auggie@0.21.0\",\n",
            "        \"--acp\"\n",
            "      ],\n",
            "      \"env\": {\n",
            "        \"AUGMENT_DISABLE_AUTO_UPDATE\": \"1\"\n",
            "      }\n",
            "    }\n",
            "  }\n",
            "}",
        )
    );
    assert_eq!(
        snippets[3].code,
        concat!(
            "require(\"avante\").setup({\n",
            "  provider = \"auggie\",\n",
            "  acp_providers = {\n",
            "    [\"auggie\"] = {\n",
            "      command = \"npx\",\n",
            "      args = { \"-y\", \"@augmentcode/auggie@0.21.0\", \"--acp\" },\n",
            "      env = {\n",
            "        AUGMENT_DISABLE_AUTO_UPDATE = \"1\",\n",
            "      },\n",
            "    },\n",
            "  },\n",
            "})",
        )
    );
    assert_eq!(
        snippets[4].code,
        concat!(
            "require(\"codecompanion\").setup({\n",
            "  adapters = {\n",
            "    acp = {\n",
            "      [\"auggie\"] = function()\n",
            "        return require(\"codecompanion.adapters\").extend(\"goose\", {\n",
            "          name = \"auggie\",\n",
            "          formatted_name = \"auggie agent\",\n",
            "          commands = { default = { \"npx\", \"-y\", \"@augmentcode/auggie@0.21.0\", \"--acp\" } },\n",
            "          -- Functions, so that CodeCompanion passes each value exactly as written.\n",
            "          env = {\n",
            "            AUGMENT_DISABLE_AUTO_UPDATE = function() return \"1\" end,\n",
            "          },\n",
            "        })\n",
            "      end,\n",
            "    },\n",
            "  },\n",
            "})",
        )
    );
    assert_eq!(
        snippets[5].code,
        concat!(
            "(with-eval-after-load 'agent-shell\n",
            "  (add-to-list 'agent-shell-agent-configs\n",
            "               (agent-shell-make-agent-config\n",
            "                :identifier 'auggie\n",
            "                :mode-line-name \"auggie agent\"\n",
            "                :buffer-name \"auggie agent\"\n",
            "                :shell-prompt \"auggie agent> \"\n",
            "                :shell-prompt-regexp (regexp-quote \"auggie agent> \")\n",
            "                :client-maker\n",
            "                (lambda (buffer)\n",
            "                  (acp-make-client\n",
            "                   :command \"npx\"\n",
            "                   :command-params '(\"-y\" \"@augmentcode/auggie@0.21.0\" \"--acp\")\n",
            "                   :environment-variables '(\"AUGMENT_DISABLE_AUTO_UPDATE=1\")\n",
            "                   :context-buffer buffer)))))",
        )
    );

    let extension = Entry {
        kind: Kind::Extension,
        ..entry.clone()
    };
    assert_eq!(zed_registry_snippet(&extension), None);
}

#[test]
fn client_files_follow_the_operating_system() {
    let entry = npx_entry("a", package("p", &[], &[]));
    let files = |p: Option<&str>| -> Vec<String> {
        client_snippets(&entry, Method::Npx, p.map(platform))
            .into_iter()
            .skip(1)
            .map(|s| s.file)
            .collect()
    };
    assert_eq!(
        files(None),
        [
            "~/.config/zed/settings.json",
            "~/.jetbrains/acp.json",
            "~/.config/nvim/init.lua",
            "~/.config/nvim/init.lua",
            "~/.emacs.d/init.el"
        ]
    );
    assert_eq!(
        files(Some("windows-x86_64")),
        [
            r"%APPDATA%\Zed\settings.json",
            r"%USERPROFILE%\.jetbrains\acp.json",
            r"%LOCALAPPDATA%\nvim\init.lua",
            r"%LOCALAPPDATA%\nvim\init.lua",
            r"%APPDATA%\.emacs.d\init.el"
        ]
    );
}

#[test]
fn lua_keys_and_elisp_symbols_are_quoted_when_they_must_be() {
    let entry = npx_entry(
        "9lives",
        package("p", &[], &[("end", "1"), ("A-B", "2"), ("_ok", "3")]),
    );
    let launch = launch_command(&entry, Method::Npx, None).unwrap();
    let avante = avante_snippet(&entry, &launch, None).code;
    assert!(avante.contains("        [\"A-B\"] = \"2\",\n"), "{avante}");
    assert!(avante.contains("        _ok = \"3\",\n"), "{avante}");
    assert!(avante.contains("        [\"end\"] = \"1\",\n"), "{avante}");
    let shell = agent_shell_snippet(&entry, &launch, None).code;
    assert!(shell.contains(":identifier (intern \"9lives\")"), "{shell}");
}

#[test]
fn codecompanion_warns_when_an_argument_would_be_substituted() {
    let entry = npx_entry("a", package("p", &["--key=${TOKEN}"], &[("TOKEN", "x")]));
    let launch = launch_command(&entry, Method::Npx, None).unwrap();
    let snippet = codecompanion_snippet(&entry, &launch, None);
    assert!(
        has_note(&snippet.notes, NoteKind::Caveat, "${TOKEN}"),
        "{:?}",
        snippet.notes
    );
    let entry = npx_entry("a", package("p", &["--key=${OTHER}"], &[("TOKEN", "x")]));
    let launch = launch_command(&entry, Method::Npx, None).unwrap();
    assert!(!has_note(
        &codecompanion_snippet(&entry, &launch, None).notes,
        NoteKind::Caveat,
        "replaces"
    ));
}

/// Whether `code` holds an invisible character other than its own line breaks.
fn hides_characters(code: &str) -> bool {
    code.chars()
        .any(|c| c != '\n' && invisible::classify(c).is_some())
}

/// Issue 13: arguments holding controls (`\x15` erases the typed line, `\x1b[201~` ends a
/// bracketed paste), bidi controls or zero-width characters were copied raw and without a word.
/// Now every snippet writes them as escapes, lists them, warns first, and parses back to the
/// exact characters.
#[test]
fn invisible_characters_are_escaped_listed_and_read_back_exactly() {
    let cases: [(&str, &[&str], &[char]); 8] = [
        (
            "bidi override",
            &["\u{202E}~ fr- mr && --safe"],
            &['\u{202E}'],
        ),
        ("line kill", &["a\u{15}b"], &['\u{15}']),
        (
            "end of bracketed paste",
            &["x\u{1b}[201~; touch /tmp/pwned"],
            &['\u{1b}'],
        ),
        (
            "isolates and zero-width",
            &["--a\u{2066}b\u{2069}", "c\u{200B}d\u{FEFF}"],
            &['\u{2066}', '\u{2069}', '\u{200B}', '\u{FEFF}'],
        ),
        (
            "tab and no-break space",
            &["a\tb\u{a0}c"],
            &['\t', '\u{a0}'],
        ),
        ("C1 control", &["a\u{9b}31m"], &['\u{9b}']),
        (
            "tag character beyond the BMP",
            &["a\u{E0041}"],
            &['\u{E0041}'],
        ),
        (
            "quotes beside them",
            &["it's\u{200D}\"$HOME\"`x`"],
            &['\u{200D}'],
        ),
    ];
    for (name, args, chars) in cases {
        let target = package("demo@1.0.0", args, &[("T_VAR", args[0])]);
        let entry = npx_entry("demo", target.clone());
        let mut expected_argv = strings(&["-y", "demo@1.0.0"]);
        expected_argv.extend(strings(args));
        for snippet in run_snippets(&entry, Method::Npx, None) {
            assert!(
                !hides_characters(&snippet.code),
                "{name}: {:?}",
                snippet.code
            );
            assert_eq!(snippet.invisible, chars, "{name}");
            let (env, argv) = match snippet.shell {
                Shell::Posix => parse_posix_command(&snippet.code),
                Shell::PowerShell => parse_powershell_command(&snippet.code),
            };
            assert_eq!(argv[1..], expected_argv, "{name}: {}", snippet.code);
            assert_eq!(env, target.env, "{name}: {}", snippet.code);
            let warning = snippet
                .notes
                .iter()
                .find(|n| n.kind == NoteKind::Caveat)
                .expect("a caveat");
            assert!(
                warning.text.contains("characters you cannot see")
                    && warning.text.contains(&invisible::names(chars)),
                "{name}: {}",
                warning.text
            );
            assert_eq!(snippet.copy_text(), Some(snippet.code.as_str()), "{name}");
        }
        let launch = launch_command(&entry, Method::Npx, None).unwrap();
        for snippet in client_snippets(&entry, Method::Npx, None)
            .into_iter()
            .skip(1)
        {
            assert!(!hides_characters(&snippet.code), "{name}: {}", snippet.code);
            assert_eq!(snippet.invisible, chars, "{name} {}", snippet.title);
            assert!(
                snippet
                    .notes
                    .iter()
                    .find(|n| n.kind == NoteKind::Caveat)
                    .is_some_and(|n| n.text.contains("cannot see")),
                "{name} {}: {:?}",
                snippet.title,
                snippet.notes
            );
            let literals = match snippet.language {
                "json" => {
                    let value: serde_json::Value = serde_json::from_str(&snippet.code).unwrap();
                    let server = &value["agent_servers"]["demo agent"];
                    let args: Vec<String> = serde_json::from_value(server["args"].clone()).unwrap();
                    assert_eq!(args, launch.args, "{name} {}", snippet.title);
                    assert_eq!(server["env"]["T_VAR"], args[2], "{name}");
                    continue;
                }
                "lua" => lua_literals(&snippet.code),
                _ => elisp_literals(&snippet.code),
            };
            for arg in args {
                assert!(
                    literals.iter().any(|l| l == arg),
                    "{name} {}: {literals:?}",
                    snippet.title
                );
            }
        }
    }
}

/// Names with invisible characters reach the client configurations escaped, and warned about.
#[test]
fn an_invisible_name_is_escaped_in_every_configuration() {
    let entry = Entry {
        name: "Gemini\u{200B} CLI\u{202E}".to_owned(),
        ..npx_entry("gemini", package("g@1.0.0", &[], &[]))
    };
    for snippet in client_snippets(&entry, Method::Npx, None)
        .into_iter()
        .skip(1)
    {
        assert!(!hides_characters(&snippet.code), "{}", snippet.code);
        assert_eq!(
            snippet.invisible,
            ['\u{200B}', '\u{202E}'],
            "{}",
            snippet.title
        );
    }
    let registry_form = zed_registry_snippet(&entry).unwrap();
    assert_eq!(registry_form.invisible, []);
    assert_eq!(
        registry_form.notes,
        [Note::requirement("Zed 0.221 or later")]
    );
}

#[test]
fn unrepresentable_values_are_flagged() {
    let entry = npx_entry("a", package("p", &["a\0b"], &[("", "1"), ("A=B", "2")]));
    let launch = launch_command(&entry, Method::Npx, None).unwrap();
    assert!(has_note(&launch.notes, NoteKind::Caveat, "NUL character"));
    assert_eq!(
        launch
            .notes
            .iter()
            .filter(|n| n.text.contains("is not valid"))
            .count(),
        2
    );
    // Names that cannot be set are left out of the command rather than mangled.
    let posix = &run_snippets(&entry, Method::Npx, Some(platform("linux-x86_64")))[0];
    assert_eq!(posix.code, r"npx -y p $'a\x00b'");
    assert_eq!(posix.invisible, ['\0']);
    assert_eq!(posix.copy_text(), None, "no text can pass a NUL");
}

// ---------------------------------------------------------------------------------------------
// Test-only parsers of the syntax the snippets use

/// The words of a POSIX command line, as bash reads them: bare (with `\`-escaped characters),
/// `'…'` and `$'…'` parts (`\\`, `\'`, `\n`, `\t`, `\r` and `\xHH` escapes), joined when
/// adjacent. Where there is
/// no `$'…'`, `shell-words` must read the same words.
fn posix_words(code: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<Vec<u8>> = None;
    let mut chars = code.chars().peekable();
    let mut utf8 = [0; 4];
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\n' => words.extend(word.take()),
            '\'' => {
                let part = word.get_or_insert_default();
                loop {
                    match chars.next().expect("a closing quote") {
                        '\'' => break,
                        c => part.extend(c.encode_utf8(&mut utf8).bytes()),
                    }
                }
            }
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                let part = word.get_or_insert_default();
                loop {
                    match chars.next().expect("a closing quote") {
                        '\'' => break,
                        '\\' => match chars.next().expect("an escape") {
                            '\\' => part.push(b'\\'),
                            '\'' => part.push(b'\''),
                            'n' => part.push(b'\n'),
                            't' => part.push(b'\t'),
                            'r' => part.push(b'\r'),
                            'x' => {
                                let mut byte = 0;
                                for _ in 0..2 {
                                    match chars.peek().and_then(|c| c.to_digit(16)) {
                                        Some(digit) => {
                                            byte = byte * 16 + digit as u8;
                                            chars.next();
                                        }
                                        None => break,
                                    }
                                }
                                part.push(byte);
                            }
                            other => panic!("unexpected $'…' escape \\{other} in {code:?}"),
                        },
                        c => part.extend(c.encode_utf8(&mut utf8).bytes()),
                    }
                }
            }
            '\\' => {
                let escaped = chars.next().expect("an escaped character");
                word.get_or_insert_default()
                    .extend(escaped.encode_utf8(&mut utf8).bytes());
            }
            '"' => panic!("the package snippets never write \" outside quotes: {code:?}"),
            c => word
                .get_or_insert_default()
                .extend(c.encode_utf8(&mut utf8).bytes()),
        }
    }
    words.extend(word);
    let words: Vec<String> = words
        .into_iter()
        .map(|w| String::from_utf8(w).expect("UTF-8 words"))
        .collect();
    if !code.contains("$'") {
        assert_eq!(
            shell_words::split(code).expect("balanced quotes"),
            words,
            "shell-words reads {code:?} otherwise"
        );
    }
    words
}

/// POSIX: `[NAME=value… | env [--] NAME=value…] program args…` back into (env, argv).
fn parse_posix_command(code: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let words = posix_words(code);
    let mut words = words.into_iter().peekable();
    let mut env = BTreeMap::new();
    let through_env = words.peek().is_some_and(|w| w == "env");
    if through_env {
        words.next();
        if words.peek().is_some_and(|w| w == "--") {
            words.next();
        }
    }
    while let Some(word) = words.peek() {
        let is_assignment = match word.split_once('=') {
            Some((name, _)) => {
                through_env || name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }
            None => false,
        };
        if !is_assignment || word == "npx" || word == "uvx" {
            break;
        }
        let (name, value) = word.split_once('=').unwrap();
        env.insert(name.to_owned(), value.to_owned());
        words.next();
    }
    (env, words.collect())
}

fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

/// The content of a PowerShell single-quoted literal starting at `chars` (after its opening
/// quote): a doubled quote character is one quote.
fn powershell_unquote(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut out = String::new();
    loop {
        let c = chars.next().expect("a closing quote");
        if is_single_quote(c) {
            match chars.peek() {
                Some(&next) if is_single_quote(next) => {
                    out.push(next);
                    chars.next();
                }
                _ => return out,
            }
        } else {
            out.push(c);
        }
    }
}

/// The statements of a PowerShell snippet as words: quoted words unquoted, `${env:…}` with its
/// backtick escapes removed. Only the subset of PowerShell the snippets use.
fn powershell_statements(code: &str) -> Vec<Vec<String>> {
    let mut statements = Vec::new();
    let mut words = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => statements.extend((!words.is_empty()).then(|| std::mem::take(&mut words))),
            ' ' => {}
            '(' | ',' | ')' => words.push(c.to_string()),
            c if is_single_quote(c) => words.push(powershell_unquote(&mut chars)),
            c if is_double_quote(c) => words.push(powershell_unquote_expandable(&mut chars)),
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                let mut name = String::from("${");
                loop {
                    match chars.next().expect("a closing brace") {
                        '`' => name.push(chars.next().expect("an escaped character")),
                        '}' => break,
                        c => name.push(c),
                    }
                }
                name.push('}');
                words.push(name);
            }
            c => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if matches!(next, ' ' | '\n' | '(' | ',' | ')') {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                words.push(word);
            }
        }
    }
    statements.extend((!words.is_empty()).then_some(words));
    statements
}

fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201C}' | '\u{201D}' | '\u{201E}')
}

/// The content of a PowerShell double-quoted string starting at `chars` (after its opening
/// quote), in the subset the snippets write: backtick escapes of `` ` ``, `$` and the double
/// quotes, and `$([char]0xHHHH)` and `$([char]::ConvertFromUtf32(0xHHHHH))` subexpressions.
fn powershell_unquote_expandable(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut out = String::new();
    loop {
        match chars.next().expect("a closing double quote") {
            '`' => {
                let c = chars.next().expect("an escaped character");
                assert!(c == '`' || c == '$' || is_double_quote(c), "escape `{c}");
                out.push(c);
            }
            '$' => {
                let mut expression = String::new();
                assert_eq!(chars.next(), Some('('), "only $(…) after $");
                let mut depth = 1;
                for c in chars.by_ref() {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    if depth == 0 {
                        break;
                    }
                    expression.push(c);
                }
                let hex = expression
                    .strip_prefix("[char]0x")
                    .or_else(|| {
                        expression
                            .strip_prefix("[char]::ConvertFromUtf32(0x")
                            .and_then(|e| e.strip_suffix(')'))
                    })
                    .unwrap_or_else(|| panic!("unexpected subexpression $({expression})"));
                let code = u32::from_str_radix(hex, 16).expect("hexadecimal");
                out.push(char::from_u32(code).expect("a character"));
            }
            c if is_double_quote(c) => return out,
            c => out.push(c),
        }
    }
}

/// PowerShell: `$env:NAME = 'value'` lines then `program args…`, back into (env, argv).
fn parse_powershell_command(code: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let mut statements = powershell_statements(code);
    let argv = statements.pop().expect("a command");
    let env = statements
        .into_iter()
        .map(|statement| {
            if let [set, open, name, comma, value, close] = &statement[..] {
                assert_eq!(
                    (set.as_str(), open.as_str(), comma.as_str(), close.as_str()),
                    ("[Environment]::SetEnvironmentVariable", "(", ",", ")")
                );
                return (name.clone(), value.clone());
            }
            let [variable, equals, value] = &statement[..] else {
                panic!("{statement:?}")
            };
            assert_eq!(equals, "=");
            let name = variable
                .strip_prefix("$env:")
                .or_else(|| {
                    variable
                        .strip_prefix("${env:")
                        .and_then(|v| v.strip_suffix('}'))
                })
                .expect("an environment variable");
            (name.to_owned(), value.clone())
        })
        .collect();
    (env, argv)
}

/// The string literals of a Lua snippet, in order, decoded (`--` comments skipped).
fn lua_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'-') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                let mut s = Vec::new();
                let mut utf8 = [0; 4];
                loop {
                    match chars.next().expect("a closing quote") {
                        '"' => break,
                        '\n' => panic!("an unescaped newline in a Lua string"),
                        '\\' => match chars.next().expect("an escape") {
                            '\\' => s.push(b'\\'),
                            '"' => s.push(b'"'),
                            'n' => s.push(b'\n'),
                            'r' => s.push(b'\r'),
                            't' => s.push(b'\t'),
                            d if d.is_ascii_digit() => {
                                let mut code = d.to_digit(10).unwrap();
                                for _ in 0..2 {
                                    match chars.peek().and_then(|c| c.to_digit(10)) {
                                        Some(digit) => {
                                            code = code * 10 + digit;
                                            chars.next();
                                        }
                                        None => break,
                                    }
                                }
                                s.push(u8::try_from(code).expect("a byte"));
                            }
                            other => panic!("unexpected Lua escape \\{other}"),
                        },
                        c => s.extend(c.encode_utf8(&mut utf8).bytes()),
                    }
                }
                out.push(String::from_utf8(s).expect("UTF-8 bytes"));
            }
            _ => {}
        }
    }
    out
}

/// The string literals of an Emacs Lisp snippet, in order, decoded.
fn elisp_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        loop {
            match chars.next().expect("a closing quote") {
                '"' => break,
                '\\' => match chars.next().expect("an escape") {
                    '\\' => s.push('\\'),
                    '"' => s.push('"'),
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    d @ '0'..='7' => {
                        let mut code = d.to_digit(8).unwrap();
                        for _ in 0..2 {
                            match chars.peek().and_then(|c| c.to_digit(8)) {
                                Some(digit) => {
                                    code = code * 8 + digit;
                                    chars.next();
                                }
                                None => break,
                            }
                        }
                        assert!(code < 0x80, "an octal escape is a raw byte beyond ASCII");
                        s.push(char::from_u32(code).expect("a character"));
                    }
                    u @ ('u' | 'U') => {
                        let digits = if u == 'u' { 4 } else { 8 };
                        let hex: String = chars.by_ref().take(digits).collect();
                        let code = u32::from_str_radix(&hex, 16).expect("hexadecimal");
                        s.push(char::from_u32(code).expect("a character"));
                    }
                    other => panic!("unexpected Emacs Lisp escape \\{other}"),
                },
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Properties

/// Characters that mean something to some shell or some language we write.
const TRICKY: &[char] = &[
    '\'', '"', '\\', '$', '`', ';', '|', '&', '\n', '\t', '\r', '*', '?', '~', '#', ' ', '(', ')',
    '{', '}', '[', ']', '<', '>', '!', '=', '%', ',', '-', '@', ':', '\u{1}', '\u{7f}', '\u{2018}',
    '\u{2019}', '\u{201A}', '\u{201B}', '\u{201C}', 'é', '中', '🦀', '0', '7', 'a',
];

/// Any string without NUL (which no process can receive), weighted towards trouble.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(TRICKY), 0..12).prop_map(String::from_iter),
        "[a-z][a-z0-9-]{0,8}",
        "--[a-z][a-z-]{0,8}(=[a-z0-9.]{0,4})?",
        any::<String>().prop_map(|s| s.replace('\0', "")),
        Just(String::new()),
    ]
}

/// A settable environment variable name: mostly identifiers, sometimes anything without `=`.
fn env_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "T_[A-Z0-9_]{0,8}",
        1 => text().prop_map(|s| format!("T{}", s.replace('=', ""))),
    ]
}

fn env_vars() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(env_name(), text(), 0..4)
}

fn package_target() -> impl Strategy<Value = PackageTarget> {
    (text(), prop::collection::vec(text(), 0..6), env_vars())
        .prop_map(|(package, args, env)| PackageTarget { package, args, env })
}

/// `["-y", package, args…]` for npx, `[package, args…]` for uvx.
fn expected_args(method: Method, target: &PackageTarget) -> Vec<String> {
    let mut args = if method == Method::Npx {
        vec!["-y".to_owned()]
    } else {
        Vec::new()
    };
    args.push(target.package.clone());
    args.extend(target.args.iter().cloned());
    args
}

fn package_entry(method: Method, target: PackageTarget) -> Entry {
    match method {
        Method::Npx => npx_entry("p", target),
        _ => uvx_entry("p", target),
    }
}

fn package_method() -> impl Strategy<Value = Method> {
    prop::sample::select(vec![Method::Npx, Method::Uvx])
}

proptest! {
    #[test]
    fn posix_words_round_trip(word in text()) {
        let quoted = posix_quote(&word);
        prop_assert!(!invisible::contains(&quoted), "{:?}", quoted);
        prop_assert_eq!(posix_words(&quoted), vec![word]);
    }

    #[test]
    fn powershell_words_round_trip(word in text()) {
        let quoted = powershell_quote(&word);
        prop_assert!(!invisible::contains(&quoted), "{:?}", quoted);
        let mut statements = powershell_statements(&quoted);
        // A newline inside quotes stays inside the word; a bare word never holds one.
        prop_assert_eq!(statements.len(), 1);
        prop_assert_eq!(statements.pop().unwrap(), vec![word]);
    }

    #[test]
    fn posix_commands_run_exactly_the_manifest(method in package_method(), target in package_target()) {
        let entry = package_entry(method, target.clone());
        let snippet = &run_snippets(&entry, method, Some(platform("linux-x86_64")))[0];
        prop_assert!(!hides_characters(&snippet.code), "{:?}", snippet.code);
        let mut values = expected_args(method, &target);
        values.extend(target.env.keys().chain(target.env.values()).cloned());
        prop_assert_eq!(&snippet.invisible, &invisible::collect(values.iter().map(String::as_str)));
        let (env, argv) = parse_posix_command(&snippet.code);
        prop_assert_eq!(env, target.env.clone());
        let mut expected = vec![method.as_str().to_owned()];
        expected.extend(expected_args(method, &target));
        prop_assert_eq!(argv, expected);
    }

    #[test]
    fn powershell_commands_run_exactly_the_manifest(method in package_method(), target in package_target()) {
        let entry = package_entry(method, target.clone());
        let snippet = &run_snippets(&entry, method, Some(platform("windows-x86_64")))[0];
        prop_assert!(!hides_characters(&snippet.code), "{:?}", snippet.code);
        let (env, argv) = parse_powershell_command(&snippet.code);
        prop_assert_eq!(env, target.env.clone());
        let mut expected = vec![method.as_str().to_owned()];
        expected.extend(expected_args(method, &target));
        prop_assert_eq!(argv, expected);
        let risky = expected_args(method, &target).iter().any(|a| a.is_empty() || a.contains('"'));
        prop_assert_eq!(has_note(&snippet.notes, NoteKind::Caveat, "PowerShell 7.3"), risky);
    }

    #[test]
    fn json_snippets_parse_back_to_the_launch_command(
        method in package_method(),
        target in package_target(),
        name in text(),
        windows in any::<bool>(),
    ) {
        let entry = Entry { name, ..package_entry(method, target.clone()) };
        let p = windows.then(|| platform("windows-x86_64"));
        let launch = launch_command(&entry, method, p).unwrap();
        prop_assert!(launch.notes.iter().map(|n| n.kind).is_sorted(), "{:?}", launch.notes);
        prop_assert_eq!(&launch.args, &expected_args(method, &target));
        prop_assert_eq!(&launch.env, &target.env);
        let key = if entry.name.trim().is_empty() { entry.id.clone() } else { entry.name.clone() };
        for snippet in [zed_custom_snippet(&entry, &launch, None), jetbrains_snippet(&entry, &launch, None)] {
            prop_assert!(!hides_characters(&snippet.code), "{:?}", snippet.code);
            let value: serde_json::Value = serde_json::from_str(&snippet.code).unwrap();
            let servers = value["agent_servers"].as_object().unwrap();
            prop_assert_eq!(servers.len(), 1);
            let server = &servers[key.as_str()];
            prop_assert_eq!(server["command"].as_str().unwrap(), launch.command.as_str());
            let args: Vec<String> = serde_json::from_value(server["args"].clone()).unwrap();
            prop_assert_eq!(&args, &launch.args);
            let env: BTreeMap<String, String> = serde_json::from_value(server["env"].clone()).unwrap();
            prop_assert_eq!(&env, &launch.env);
            prop_assert_eq!(server.get("type").and_then(|t| t.as_str()), (snippet.client == Client::Zed).then_some("custom"));
        }
    }

    #[test]
    fn lua_and_elisp_strings_round_trip(s in text()) {
        prop_assert!(!hides_characters(&lua_string(&s)) && !hides_characters(&elisp_string(&s)));
        prop_assert!(!lua_string(&s).contains('\n') && !elisp_string(&s).contains('\n'));
        prop_assert_eq!(lua_literals(&lua_string(&s)), vec![s.clone()]);
        prop_assert_eq!(elisp_literals(&elisp_string(&s)), vec![s]);
    }

    #[test]
    fn lua_snippets_hold_exactly_the_launch_command(
        method in package_method(),
        target in package_target(),
        id in "[a-z][a-z0-9-]{0,10}",
        name in text(),
    ) {
        let entry = Entry { id: id.clone(), name, ..package_entry(method, target) };
        let launch = launch_command(&entry, method, None).unwrap();
        let display = if entry.name.trim().is_empty() { id.clone() } else { entry.name.clone() };
        let env_literals = launch.env.iter().flat_map(|(name, value)| {
            let bare = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && !["and", "end", "for", "if", "in", "do", "or", "not", "nil", "true", "false"].contains(&name.as_str());
            (!bare).then(|| name.clone()).into_iter().chain([value.clone()])
        });

        let mut expected = strings(&["avante"]);
        expected.extend([id.clone(), id.clone(), launch.command.clone()]);
        expected.extend(launch.args.iter().cloned());
        expected.extend(env_literals.clone());
        prop_assert_eq!(lua_literals(&avante_snippet(&entry, &launch, None).code), expected);

        let mut expected = vec!["codecompanion".to_owned(), id.clone()];
        expected.extend(strings(&["codecompanion.adapters", "goose"]));
        expected.extend([id, display, launch.command.clone()]);
        expected.extend(launch.args.iter().cloned());
        expected.extend(env_literals);
        prop_assert_eq!(lua_literals(&codecompanion_snippet(&entry, &launch, None).code), expected);
    }

    #[test]
    fn elisp_snippets_hold_exactly_the_launch_command(
        method in package_method(),
        target in package_target(),
        name in text(),
    ) {
        let entry = Entry { name, ..package_entry(method, target) };
        let launch = launch_command(&entry, method, None).unwrap();
        let display = if entry.name.trim().is_empty() { entry.id.clone() } else { entry.name.clone() };
        let prompt = format!("{display}> ");
        let mut expected = vec![display.clone(), display, prompt.clone(), prompt, launch.command.clone()];
        expected.extend(launch.args.iter().cloned());
        expected.extend(launch.env.iter().map(|(n, v)| format!("{n}={v}")));
        prop_assert_eq!(elisp_literals(&agent_shell_snippet(&entry, &launch, None).code), expected);
    }
}

// ---------------------------------------------------------------------------------------------
// Real shells, when installed

/// The POSIX shells installed here.
fn installed_shells() -> Vec<&'static str> {
    ["sh", "dash", "bash", "zsh"]
        .into_iter()
        .filter(|sh| {
            Command::new(sh)
                .args(["-c", "exit 0"])
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect()
}

/// A folder holding fake `npx` and `uvx` that print their arguments and environment,
/// NUL-separated, or `None` without perl. The fakes are perl scripts because shells are no
/// faithful witnesses: dash drops variables whose names are not identifiers, and bash resets
/// its own special ones (`RANDOM`, `SECONDS`…), before a script could print them.
fn fake_programs() -> Option<PathBuf> {
    let perl = Command::new("sh")
        .args(["-c", "command -v perl"])
        .output()
        .ok()?;
    let perl = String::from_utf8(perl.stdout).ok()?.trim().to_owned();
    if perl.is_empty() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("registry-core-snippets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    for program in ["npx", "uvx"] {
        let path = dir.join(program);
        let script = format!(
            "#!{perl}\nprint map {{ \"$_\\0\" }} @ARGV;\nprint \"\\x01ENV\\0\";\nprint map {{ \"$_=$ENV{{$_}}\\0\" }} keys %ENV;\n"
        );
        std::fs::write(&path, script).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).ok()?;
        }
    }
    Some(dir)
}

/// Runs `code` with `shell`, the fake programs first on PATH: the argv (without the program)
/// and environment the program received.
fn run_in(
    shell: &str,
    dir: &std::path::Path,
    code: &str,
) -> (Vec<String>, BTreeMap<String, String>) {
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new(shell)
        .arg("-c")
        .arg(code)
        .env("PATH", path)
        .output()
        .expect("the shell runs");
    assert!(
        output.status.success(),
        "{shell} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    let mut fields = text.split('\0');
    let args = fields
        .by_ref()
        .take_while(|f| *f != "\u{1}ENV")
        .map(str::to_owned)
        .collect();
    let env = fields
        .filter_map(|f| f.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    (args, env)
}

#[test]
fn real_shells_run_exactly_the_manifest() {
    let Some(dir) = fake_programs() else { return };
    let shells = installed_shells();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(48));
    runner
        .run(&(package_method(), package_target()), |(method, target)| {
            let entry = package_entry(method, target.clone());
            let code = &run_snippets(&entry, method, Some(platform("linux-x86_64")))[0].code;
            // `$'…'` (written for invisible characters) is bash and zsh, not dash.
            let readers = shells
                .iter()
                .filter(|sh| !code.contains("$'") || matches!(**sh, "bash" | "zsh"));
            for shell in readers {
                let (args, env) = run_in(shell, &dir, code);
                prop_assert_eq!(
                    &args,
                    &expected_args(method, &target),
                    "{} ran {}",
                    shell,
                    code
                );
                for (name, value) in &target.env {
                    prop_assert_eq!(env.get(name), Some(value), "{} ran {}", shell, code);
                }
            }
            Ok(())
        })
        .unwrap();

    // Names bash or zsh treat specially still reach the program.
    let target = package(
        "p",
        &["acp"],
        &[
            ("UID", "0"),
            ("RANDOM", "4"),
            ("SECONDS", "9"),
            ("path", "x"),
        ],
    );
    let code = &run_snippets(&npx_entry("a", target.clone()), Method::Npx, None)[0].code;
    for shell in &shells {
        let (args, env) = run_in(shell, &dir, code);
        assert_eq!(args, ["-y", "p", "acp"], "{shell}");
        for (name, value) in &target.env {
            assert_eq!(env.get(name), Some(value), "{shell}: {name} in {code}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
