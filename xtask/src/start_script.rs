//! The start-up script: `src/start.js` is its readable source, and `pattern_script` in
//! `Trunk.toml` (which Trunk writes into every page, a TOML literal string on one line) is that
//! file on one line: `<script type="module">`, each line of the file trimmed and joined to the
//! next with nothing between, blank lines and comment lines left out, then `</script>`.
//!
//! [`check`] runs before every build of the site ([`crate::dist::compile`]) and in the tests, and
//! says what to paste into `Trunk.toml` when the two differ. The pages' Content-Security-Policy
//! hashes the script as the build wrote it ([`crate::csp`]), so it follows by itself. The
//! script's behaviour is tested in Node by `tests/start.test.mjs`.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};

/// The readable source, relative to the workspace root.
pub const SOURCE: &str = "src/start.js";

/// Fails unless `pattern_script` in `Trunk.toml` is [`SOURCE`] on one line, saying what to paste.
pub fn check(root: &Path) -> Result<()> {
    let read = |name: &str| {
        let path = root.join(name);
        fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    };
    let expected = pattern_script(&read(SOURCE)?)?;
    let trunk: toml::Table = read("Trunk.toml")?.parse().context("reading Trunk.toml")?;
    let written = trunk
        .get("build")
        .and_then(|build| build.get("pattern_script"))
        .and_then(toml::Value::as_str);
    if written != Some(expected.as_str()) {
        bail!(
            "`pattern_script` in Trunk.toml is not {SOURCE} on one line: under [build], write\n\
             pattern_script = '{expected}'"
        );
    }
    Ok(())
}

/// The value of `pattern_script` made from the script's source: see the module docs. Fails on a
/// source whose one line would not be the same program (a comment after code, two words run
/// together) or cannot be a TOML literal string (a `'`).
fn pattern_script(source: &str) -> Result<String> {
    let lines: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .collect();
    for (number, line) in lines.iter().enumerate() {
        ensure!(
            !line.contains('\''),
            "{SOURCE}: `{line}` has a `'`, which a TOML literal string cannot hold: use `\"`"
        );
        ensure!(
            !line.contains("//") && !line.contains("/*"),
            "{SOURCE}: `{line}` has a comment after code: give it a line of its own"
        );
        let next = lines.get(number + 1).and_then(|next| next.chars().next());
        let last = line.chars().last();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "_$".contains(c));
        ensure!(
            !(word(last) && word(next)),
            "{SOURCE}: `{line}` ends in a word the next line's would run into: end it in \
             punctuation (`;`, `{{`, `(`…) or join the two lines"
        );
    }
    Ok(format!(
        "<script type=\"module\">{}</script>",
        lines.concat()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_writes_the_start_up_script_of_src_start_js() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        check(root).unwrap();
    }

    #[test]
    fn the_script_is_its_lines_joined_without_comments() {
        let table = [
            (
                "// What it does.\nif (a) {\n  b();\n\n  // Why.\n  c();\n}\n",
                Ok("<script type=\"module\">if (a) {b();c();}</script>"),
            ),
            ("const a = 1; // one\n", Err("a comment after code")),
            (
                "const url = 'x';\n",
                Err("a TOML literal string cannot hold"),
            ),
            ("return\nvalue;\n", Err("run into")),
            (
                "x = a\n+ b;\n",
                Ok("<script type=\"module\">x = a+ b;</script>"),
            ),
        ];
        for (source, expected) in table {
            match (pattern_script(source), expected) {
                (Ok(script), Ok(expected)) => assert_eq!(script, expected, "{source:?}"),
                (Err(err), Err(expected)) => {
                    assert!(err.to_string().contains(expected), "{source:?}: {err}");
                }
                (found, expected) => panic!("{source:?}: {found:?}, expected {expected:?}"),
            }
        }
    }
}
