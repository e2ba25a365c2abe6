//! What you copy is what you see, in a real terminal: the POSIX run snippets of agents whose
//! arguments hold controls, bidi controls and zero-width characters are pasted into an
//! interactive bash in a tmux pane (a real pty, readline, bracketed paste), and the program bash
//! starts must receive exactly the manifest's argv and environment.
//!
//! A control case pastes the old, unescaped form of a hostile argument and shows that bash then
//! does not run what the snippet showed: the test would notice raw control characters.
//!
//! Needs `tmux`, `bash` and `perl`; not run by `cargo test` (`test = false` in `Cargo.toml`), but
//! by `cargo xtask test`, which installs tmux first: `cargo test -p registry-core --test paste`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

use registry_core::snippets::posix_quote;
use registry_core::{Distribution, Entry, Kind, Method, PackageTarget, Platform, run_snippets};

/// How long a pasted command may take to reach the fake `npx`.
const PATIENCE: Duration = Duration::from_secs(15);
/// The prompt of the pane's bash, to know it is ready for the next paste.
const PROMPT: &str = "paste-test-ready$ ";

/// A tmux server of its own (its own socket) with one pane running an interactive bash; killed
/// when dropped.
struct Pane {
    socket: String,
    dir: PathBuf,
}

impl Pane {
    fn start() -> Pane {
        let dir = std::env::temp_dir().join(format!("registry-core-paste-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let npx = dir.join("npx");
        std::fs::write(
            &npx,
            "#!/usr/bin/perl\n\
             open(my $f, '>', \"$ENV{PASTE_OUT}.tmp\") or die;\n\
             print $f map { \"$_\\0\" } @ARGV;\n\
             print $f \"\\x01ENV\\0\";\n\
             print $f map { \"$_=$ENV{$_}\\0\" } grep { /^T_/ } keys %ENV;\n\
             close $f;\n\
             rename(\"$ENV{PASTE_OUT}.tmp\", $ENV{PASTE_OUT}) or die;\n",
        )
        .expect("the fake npx");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&npx, std::fs::Permissions::from_mode(0o755)).unwrap();
        let pane = Pane {
            socket: format!("registry-core-paste-{}", std::process::id()),
            dir,
        };
        let shell = format!(
            "env -i HOME={dir} TERM=xterm-256color LANG=C.UTF-8 PATH={dir}:/usr/bin:/bin \
             PASTE_OUT={out} PS1='{PROMPT}' bash --norc --noprofile -i",
            dir = pane.dir.display(),
            out = pane.out().display(),
        );
        pane.tmux(&[
            "new-session",
            "-d",
            "-x",
            "200",
            "-y",
            "50",
            "-s",
            "paste",
            "-c",
            &pane.dir.display().to_string(),
            &shell,
        ]);
        pane.wait_for_prompt();
        pane
    }

    fn out(&self) -> PathBuf {
        self.dir.join("argv")
    }

    fn tmux(&self, args: &[&str]) -> Output {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs (cargo xtask test installs it)");
        assert!(
            output.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Waits until the pane's last line is the bare prompt.
    fn wait_for_prompt(&self) {
        let start = Instant::now();
        loop {
            let screen = self.tmux(&["capture-pane", "-p", "-t", "paste"]);
            let screen = String::from_utf8_lossy(&screen.stdout);
            let last = screen.lines().rfind(|l| !l.trim().is_empty());
            if last.is_some_and(|l| l == PROMPT.trim_end()) {
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no prompt in the pane:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// Pastes `text` as a terminal paste (bracketed, since readline asks for it), presses Enter,
    /// and returns the argv and `T_` environment the fake `npx` received, if it ran within
    /// `patience`.
    fn paste_and_run(&self, text: &str, patience: Duration) -> Option<Received> {
        let _ = std::fs::remove_file(self.out());
        let file = self.dir.join("paste");
        std::fs::write(&file, text).unwrap();
        self.tmux(&["load-buffer", "-b", "snippet", &file.display().to_string()]);
        self.tmux(&["paste-buffer", "-p", "-d", "-b", "snippet", "-t", "paste"]);
        self.tmux(&["send-keys", "-t", "paste", "Enter"]);
        let start = Instant::now();
        while start.elapsed() < patience {
            if let Ok(bytes) = std::fs::read(self.out()) {
                return Some(Received::parse(&bytes));
            }
            sleep(Duration::from_millis(20));
        }
        None
    }

    /// Abandons whatever is on the command line and waits for a fresh prompt.
    fn reset(&self) {
        self.tmux(&["send-keys", "-t", "paste", "C-c"]);
        self.tmux(&["send-keys", "-t", "paste", "clear", "Enter"]);
        self.wait_for_prompt();
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the fake `npx` received.
#[derive(Debug, PartialEq, Eq)]
struct Received {
    args: Vec<String>,
    env: BTreeMap<String, String>,
}

impl Received {
    fn parse(bytes: &[u8]) -> Received {
        let text = String::from_utf8(bytes.to_vec()).expect("UTF-8 arguments");
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
        Received { args, env }
    }
}

fn npx_entry(args: &[&str], env: &[(&str, &str)]) -> Entry {
    Entry {
        kind: Kind::Agent,
        id: "demo".to_owned(),
        name: "Demo".to_owned(),
        version: "1.0.0".to_owned(),
        description: String::new(),
        repository: None,
        website: None,
        authors: Vec::new(),
        license: None,
        license_url: None,
        icon: None,
        distribution: Distribution {
            npx: Some(PackageTarget {
                package: "demo@1.0.0".to_owned(),
                args: args.iter().map(|a| (*a).to_owned()).collect(),
                env: env
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
            }),
            ..Distribution::default()
        },
        raw: String::new(),
        origin: Default::default(),
    }
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn pasted_snippets_run_exactly_the_manifest_in_bash() {
    for program in ["tmux", "bash", "perl"] {
        assert!(
            have(program),
            "{program} is missing: `cargo xtask test` installs tmux; bash and perl come with \
             Debian"
        );
    }
    let pane = Pane::start();
    let cases: [(&str, &[&str], &[(&str, &str)]); 9] = [
        ("plain", &["--acp"], &[("T_MODE", "fast")]),
        (
            "bidi override (the issue's argv)",
            &["\u{202E}~ fr- mr && --safe", "--"],
            &[],
        ),
        ("line kill", &["a\u{15}b", "\u{15}"], &[]),
        (
            "end of bracketed paste, then a command",
            &["x\u{1b}[201~\rtouch pwned\r"],
            &[("T_ESC", "\u{1b}[201~")],
        ),
        (
            "isolates, zero-width, word joiner, BOM",
            &["--a\u{2066}b\u{2069}", "c\u{200B}d\u{2060}\u{FEFF}"],
            &[],
        ),
        ("tab, newline and no-break space", &["a\tb\nc\u{a0}d"], &[]),
        (
            "C1 control and a tag character",
            &["a\u{9b}31m", "b\u{E0041}"],
            &[],
        ),
        (
            "quotes and history expansion beside them",
            &["it's\u{200D} !! $HOME `id` \"q\"", "!x"],
            &[("T_Q", "'\u{7f}'")],
        ),
        ("utf-8 kept as it is", &["é中🦀\u{202C}"], &[]),
    ];
    for (name, args, env) in cases {
        let entry = npx_entry(args, env);
        let linux = Platform::parse("linux-x86_64");
        let code = &run_snippets(&entry, Method::Npx, linux)[0].code;
        let received = pane
            .paste_and_run(code, PATIENCE)
            .unwrap_or_else(|| panic!("{name}: npx never ran for {code:?}"));
        let mut expected: Vec<String> = vec!["-y".into(), "demo@1.0.0".into()];
        expected.extend(args.iter().map(|a| (*a).to_owned()));
        assert_eq!(received.args, expected, "{name}: pasted {code:?}");
        for (key, value) in env {
            assert_eq!(
                received.env.get(*key).map(String::as_str),
                Some(*value),
                "{name}"
            );
        }
        assert!(!Path::new(&pane.dir.join("pwned")).exists(), "{name}");
        pane.wait_for_prompt();
    }

    // The control: the old unescaped form of an argument ending the bracketed paste and erasing
    // the line is not what bash runs.
    let hostile = "a\u{1b}[201~b\u{15}c";
    let raw = format!("npx -y demo@1.0.0 '{hostile}'");
    let escaped = posix_quote(hostile);
    assert_ne!(escaped, format!("'{hostile}'"));
    let received = pane.paste_and_run(&raw, Duration::from_secs(2));
    assert_ne!(
        received.map(|r| r.args),
        Some(vec![
            "-y".to_owned(),
            "demo@1.0.0".to_owned(),
            hostile.to_owned()
        ]),
        "a raw control character should have changed what bash ran"
    );
    pane.reset();
}
