//! Set-up: make sure every tool the build and the tests need is installed, at the right version.
//!
//! Each step asks the installed tool for its version first and only installs when it is missing or
//! different, so a warm run takes well under a second and prints one `✓` line per step. Nothing is
//! downloaded from GitHub: Trunk and wasm-bindgen come from crates.io, wasm-opt and Tailwind from npm,
//! Chromium and tmux from Debian (see `Trunk.toml`, which runs Trunk offline).
//!
//! The versions come from the repository, not from this file, except Trunk's:
//! - wasm-bindgen-cli must equal the `wasm-bindgen` crate in `Cargo.lock` (and `Trunk.toml` must say
//!   the same), because the CLI refuses wasm built by another version;
//! - the npm packages are whatever `package-lock.json` pins.
//!
//! Child processes get `node_modules/.bin` and Cargo's `bin` directory first on their `PATH`, so
//! Trunk finds `wasm-opt` and `tailwindcss` and the test runner finds `wasm-bindgen-test-runner`.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

/// The Trunk release that builds this site (0.22 needs a newer rustc than the one pinned).
pub const TRUNK_VERSION: &str = "0.21.14";
/// The Rust target the site compiles to.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// Where Debian's `chromium` package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Where Debian's `chromium-driver` package puts the WebDriver server.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Where Debian's `tmux` package puts the terminal multiplexer.
pub const TMUX: &str = "/usr/bin/tmux";
/// The cargo-fuzz release `cargo xtask fuzz` runs.
pub const CARGO_FUZZ_VERSION: &str = "0.13.2";
/// The toolchain cargo-fuzz builds with: libFuzzer's coverage needs nightly's sanitizer flags.
pub const FUZZ_TOOLCHAIN: &str = "nightly";

/// Whether the command about to run drives a browser (tests do, building does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Browser {
    /// Install Chromium and chromedriver too.
    Needed,
    /// Skip the browser.
    NotNeeded,
}

/// The result of the set-up: how to run the project's tools.
#[derive(Debug)]
pub struct Tools {
    root: PathBuf,
    path: OsString,
}

impl Tools {
    /// The workspace root; commands made by [`Tools::command`] run there.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A command for `program`, run in the workspace root with the tools first on `PATH`.
    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.current_dir(&self.root).env("PATH", &self.path);
        command
    }
}

/// Runs every set-up step and returns how to run the tools afterwards.
pub fn ensure(root: &Path, browser: Browser) -> Result<Tools> {
    let tools = Tools {
        root: root.to_path_buf(),
        path: tool_path(root)?,
    };
    ensure_wasm_target(&tools)?;
    ensure_trunk(&tools)?;
    ensure_wasm_bindgen(&tools)?;
    ensure_npm_packages(&tools)?;
    ensure_crates_fetched(&tools)?;
    if browser == Browser::Needed {
        ensure_chromium(&tools)?;
    }
    Ok(tools)
}

/// Installs what fuzzing needs (a nightly toolchain, cargo-fuzz) and returns how to run it; the
/// rest of the set-up is not needed.
pub fn ensure_fuzzing(root: &Path) -> Result<Tools> {
    let tools = Tools {
        root: root.to_path_buf(),
        path: tool_path(root)?,
    };
    let mut toolchains = tools.command("rustup");
    toolchains.args(["toolchain", "list"]);
    let listed = output_of(toolchains).context("`rustup toolchain list` failed: install rustup")?;
    if listed
        .lines()
        .any(|l| l.starts_with(&format!("{FUZZ_TOOLCHAIN}-")))
    {
        println!("✓ rust toolchain {FUZZ_TOOLCHAIN}");
    } else {
        println!("installing rust toolchain {FUZZ_TOOLCHAIN} …");
        run(tools.command("rustup").args([
            "toolchain",
            "install",
            FUZZ_TOOLCHAIN,
            "--profile",
            "minimal",
        ]))?;
    }
    let mut version = tools.command("cargo");
    version.args(["fuzz", "--version"]);
    let installed = output_of(version);
    if installed.as_deref() == Some(&format!("cargo-fuzz {CARGO_FUZZ_VERSION}")) {
        println!("✓ cargo-fuzz {CARGO_FUZZ_VERSION}");
        return Ok(tools);
    }
    println!("installing cargo-fuzz {CARGO_FUZZ_VERSION} …");
    run(tools.command("cargo").args([
        "install",
        "cargo-fuzz",
        "--version",
        CARGO_FUZZ_VERSION,
        "--locked",
        "--force",
    ]))?;
    Ok(tools)
}

/// Runs `command` with inherited output and fails unless it exits successfully.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = show(command);
    let status = command
        .status()
        .with_context(|| format!("could not start `{shown}`: is it installed and on PATH?"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// Cargo's target directory for the workspace at `root`: `CARGO_TARGET_DIR` (relative to the
/// root) when set, else `target/`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(|dir| root.join(dir))
        .unwrap_or_else(|| root.join("target"))
}

/// Where a command's output goes: the terminal, or the end of a log file.
#[derive(Debug, Clone, Copy)]
pub enum Output<'a> {
    /// Passed through.
    Terminal,
    /// Appended to this file.
    Log(&'a Path),
}

impl Output<'_> {
    /// Sends `command`'s standard output and error where this says.
    pub fn apply(self, command: &mut Command) -> Result<()> {
        if let Output::Log(log) = self {
            let file = || {
                fs::File::options()
                    .create(true)
                    .append(true)
                    .open(log)
                    .with_context(|| format!("opening {}", log.display()))
            };
            command.stdout(file()?).stderr(file()?);
        }
        Ok(())
    }
}

/// A command line as a person would type it, for messages.
pub fn show(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| part.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn tool_path(root: &Path) -> Result<OsString> {
    let cargo_home = match std::env::var_os("CARGO_HOME") {
        Some(home) => PathBuf::from(home),
        None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?).join(".cargo"),
    };
    let first = [
        root.join("node_modules").join(".bin"),
        cargo_home.join("bin"),
    ];
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let joined = std::env::join_paths(first.into_iter().chain(std::env::split_paths(&rest)))
        .context("a directory on PATH contains a `:`")?;
    Ok(joined)
}

/// The trimmed standard output of a command, or `None` when it cannot run or fails.
fn output_of(mut command: Command) -> Option<String> {
    let output = command.stderr(Stdio::null()).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// The version a `tool --version` reports as `tool X.Y.Z`.
fn installed_version(tools: &Tools, program: &str) -> Option<String> {
    let mut command = tools.command(program);
    command.arg("--version");
    let output = output_of(command)?;
    output.split_whitespace().nth(1).map(str::to_owned)
}

fn ensure_wasm_target(tools: &Tools) -> Result<()> {
    let mut list = tools.command("rustup");
    list.args(["target", "list", "--installed"]);
    let installed = output_of(list).context(
        "`rustup target list --installed` failed: install Rust with rustup (https://rustup.rs)",
    )?;
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        println!("✓ rust target {WASM_TARGET}");
        return Ok(());
    }
    println!("installing rust target {WASM_TARGET} …");
    run(tools.command("rustup").args(["target", "add", WASM_TARGET]))
}

fn ensure_trunk(tools: &Tools) -> Result<()> {
    if installed_version(tools, "trunk").as_deref() == Some(TRUNK_VERSION) {
        println!("✓ trunk {TRUNK_VERSION}");
        return Ok(());
    }
    println!("installing trunk {TRUNK_VERSION} (about 5 minutes the first time) …");
    run(tools.command("cargo").args([
        "install",
        "trunk",
        "--version",
        TRUNK_VERSION,
        "--locked",
        "--force",
    ]))
}

fn ensure_wasm_bindgen(tools: &Tools) -> Result<()> {
    let lock = read(&tools.root.join("Cargo.lock"))?;
    let version = wasm_bindgen_in_lock(&lock).context("reading Cargo.lock")?;
    let trunk = read(&tools.root.join("Trunk.toml"))?;
    let pinned = wasm_bindgen_in_trunk_toml(&trunk).context("reading Trunk.toml")?;
    if pinned != version {
        bail!(
            "Trunk.toml pins wasm_bindgen = \"{pinned}\" but Cargo.lock has wasm-bindgen {version}: \
             set `wasm_bindgen = \"{version}\"` under [tools] in Trunk.toml"
        );
    }
    let binaries = ["wasm-bindgen", "wasm-bindgen-test-runner"];
    if binaries
        .iter()
        .all(|binary| installed_version(tools, binary).as_deref() == Some(version.as_str()))
    {
        println!("✓ wasm-bindgen {version}");
        return Ok(());
    }
    println!("installing wasm-bindgen-cli {version} (about 2 minutes the first time) …");
    // Not `--locked`: its own lockfile pins a crate version that crates.io no longer serves.
    run(tools.command("cargo").args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        &version,
        "--force",
    ]))
}

/// The version of the `wasm-bindgen` crate that `Cargo.lock` resolved.
fn wasm_bindgen_in_lock(lock: &str) -> Result<String> {
    let table: toml::Table = lock.parse()?;
    let packages = table
        .get("package")
        .and_then(toml::Value::as_array)
        .context("no [[package]] entries")?;
    let versions: Vec<&str> = packages
        .iter()
        .filter(|package| package.get("name").and_then(toml::Value::as_str) == Some("wasm-bindgen"))
        .filter_map(|package| package.get("version").and_then(toml::Value::as_str))
        .collect();
    match versions.as_slice() {
        [version] => Ok((*version).to_owned()),
        [] => bail!("no `wasm-bindgen` package: is the site crate still a workspace member?"),
        _ => bail!(
            "several wasm-bindgen versions ({}): the CLI can match only one, run `cargo update -p wasm-bindgen`",
            versions.join(", ")
        ),
    }
}

/// The `wasm_bindgen` version under `[tools]` in `Trunk.toml`.
fn wasm_bindgen_in_trunk_toml(trunk: &str) -> Result<String> {
    let table: toml::Table = trunk.parse()?;
    table
        .get("tools")
        .and_then(|tools| tools.get("wasm_bindgen"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .context("no `wasm_bindgen = \"…\"` under [tools]: Trunk would try to download it")
}

/// `npm ci` unless `node_modules` was installed from this very `package-lock.json`.
///
/// The proof is a copy of the lockfile that this step leaves in `node_modules` after a successful
/// install (`npm ci` deletes `node_modules` first, so a failed install leaves no stale copy).
fn ensure_npm_packages(tools: &Tools) -> Result<()> {
    let lock_path = tools.root.join("package-lock.json");
    let lock = fs::read(&lock_path).with_context(|| {
        format!(
            "{} is missing: run `npm install --package-lock-only` and commit it",
            lock_path.display()
        )
    })?;
    let stamp = tools
        .root
        .join("node_modules")
        .join(".xtask-package-lock.json");
    if fs::read(&stamp).is_ok_and(|installed| installed == lock) {
        println!("✓ npm packages (package-lock.json)");
        return Ok(());
    }
    println!("installing npm packages (npm ci) …");
    run(tools.command("npm").args(["ci", "--no-audit", "--no-fund"]))
        .context("Node.js 20 and npm must be installed")?;
    fs::write(&stamp, &lock).with_context(|| format!("writing {}", stamp.display()))
}

/// Trunk runs Cargo offline (`Trunk.toml`), so every crate must already be downloaded.
fn ensure_crates_fetched(tools: &Tools) -> Result<()> {
    run(tools.command("cargo").args(["fetch", "--quiet"]))?;
    println!("✓ crates downloaded (cargo fetch)");
    Ok(())
}

fn ensure_chromium(tools: &Tools) -> Result<()> {
    ensure_debian_packages(
        tools,
        &[CHROMIUM, CHROMEDRIVER],
        &["chromium", "chromium-driver"],
    )
}

/// Installs tmux, for the test that pastes snippets into bash in a real terminal
/// (`crates/registry-core/tests/paste.rs`).
pub fn ensure_tmux(tools: &Tools) -> Result<()> {
    ensure_debian_packages(tools, &[TMUX], &["tmux"])
}

/// Installs Debian `packages` with `apt-get` unless every one of `files` is there; as root only
/// (otherwise says what to run).
fn ensure_debian_packages(tools: &Tools, files: &[&str], packages: &[&str]) -> Result<()> {
    let names = packages.join(" and ");
    if files.iter().all(|file| Path::new(file).exists()) {
        println!("✓ {names}");
        return Ok(());
    }
    let install = format!(
        "apt-get update && apt-get install -y {}",
        packages.join(" ")
    );
    let uid = output_of({
        let mut id = tools.command("id");
        id.arg("-u");
        id
    });
    if uid.as_deref() != Some("0") {
        bail!(
            "{} is missing: run `sudo sh -c '{install}'`",
            files.join(" or ")
        );
    }
    println!("installing {names} ({install}) …");
    run(tools
        .command("apt-get")
        .arg("update")
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    run(tools
        .command("apt-get")
        .args(["install", "-y"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_single_wasm_bindgen_version_in_a_lockfile() {
        let lock = r#"
version = 4

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.999"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
"#;
        assert_eq!(wasm_bindgen_in_lock(lock).unwrap(), "0.2.130");
    }

    #[test]
    fn refuses_a_lockfile_with_two_wasm_bindgen_versions() {
        let lock = r#"
[[package]]
name = "wasm-bindgen"
version = "0.2.100"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
"#;
        let err = wasm_bindgen_in_lock(lock).unwrap_err().to_string();
        assert!(err.contains("0.2.100, 0.2.130"), "{err}");
    }

    #[test]
    fn the_real_lockfile_and_trunk_toml_agree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let lock = wasm_bindgen_in_lock(&read(&root.join("Cargo.lock")).unwrap()).unwrap();
        let trunk = wasm_bindgen_in_trunk_toml(&read(&root.join("Trunk.toml")).unwrap()).unwrap();
        assert_eq!(
            lock, trunk,
            "Trunk.toml [tools] wasm_bindgen must equal Cargo.lock"
        );
    }
}
