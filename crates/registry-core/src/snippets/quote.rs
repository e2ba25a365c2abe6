//! Quoting for POSIX `sh` and PowerShell: one word, and a command line with its environment.
//!
//! Quoting is chosen so that the copied line runs exactly the intended argv, and holds no raw
//! control, bidi or invisible character ([`crate::invisible`]), which would make what is pasted
//! differ from what is shown (or edit the line it is pasted into):
//!
//! - POSIX: a word made only of `[A-Za-z0-9@%+=:,./_-]` (and not starting with `=`, which zsh
//!   expands) is left bare; anything else is single-quoted, a `'` written as `'\''`. Inside
//!   single quotes nothing is special, so `$`, backticks, `\` and globs are literal. A word
//!   holding an invisible character is written as `$'…'` instead (bash, zsh, ksh and POSIX.1-2024
//!   `sh`; not dash), each invisible character as the `\xHH` escapes of its UTF-8 bytes, and a
//!   `'` as `\x27` (never `\'`, which bash's history expansion would take for the closing quote).
//! - PowerShell: a word like `acp`, `-y` or `--experimental-acp` is left bare; anything else is
//!   single-quoted, each single-quote character doubled — PowerShell treats the typographic
//!   quotes `‘ ’ ‚ ‛` as single quotes too, so they are doubled as well. Nothing else is special
//!   inside single quotes. A word holding an invisible character is double-quoted instead, each
//!   invisible character written `$([char]0xHHHH)` (which Windows PowerShell 5.1 reads too, unlike
//!   `` `u{…} ``) and `` ` ``, `$` and the double quotes `" “ ” „` escaped with a backtick.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::invisible;

/// `s` as one POSIX `sh` word: bare when it is made of `[A-Za-z0-9@%+=:,./_-]` only (and does
/// not start with `=`), single-quoted otherwise, with `'` written as `'\''`; as a bash/zsh
/// `$'…'` word when it holds an invisible character ([`crate::invisible`]), so that the word holds
/// none raw.
///
/// ```
/// use registry_core::snippets::posix_quote;
/// assert_eq!(posix_quote("--acp"), "--acp");
/// assert_eq!(posix_quote("it's $HOME"), r#"'it'\''s $HOME'"#);
/// assert_eq!(posix_quote(""), "''");
/// assert_eq!(posix_quote("--safe\u{202E}'"), r"$'--safe\xe2\x80\xae\x27'");
/// ```
pub fn posix_quote(s: &str) -> String {
    if is_posix_plain(s) {
        s.to_owned()
    } else if invisible::contains(s) {
        dollar_single_quoted(s)
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `s` as a `$'…'` word: `\` as `\\`, `'` as `\x27`, tab, line feed and carriage return as
/// `\t`, `\n` and `\r`, other invisible characters as the `\xHH` escapes of their UTF-8 bytes,
/// everything else (UTF-8 included) as it is.
fn dollar_single_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\x27"),
            '\t' => out.push_str(r"\t"),
            '\n' => out.push_str(r"\n"),
            '\r' => out.push_str(r"\r"),
            c if invisible::classify(c).is_some() => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    let _ = write!(out, "\\x{byte:02x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `s` as one PowerShell argument: bare when it looks like `acp`, `-y` or `--flag-name`
/// (letters, digits, `_` and `-`, starting with a letter after at most two dashes),
/// single-quoted otherwise, with every single-quote character (`'` and the typographic
/// `‘ ’ ‚ ‛`, which PowerShell also treats as quotes) doubled.
///
/// ```
/// use registry_core::snippets::powershell_quote;
/// assert_eq!(powershell_quote("--acp"), "--acp");
/// assert_eq!(powershell_quote("@scope/pkg@1.0.0"), "'@scope/pkg@1.0.0'");
/// assert_eq!(powershell_quote("it's"), "'it''s'");
/// ```
pub fn powershell_quote(s: &str) -> String {
    if is_powershell_bare(s) {
        s.to_owned()
    } else {
        powershell_literal(s)
    }
}

/// `s` quoted for PowerShell, always (paths, URLs, values): single-quoted, or double-quoted
/// with `$([char]0xHHHH)` for each invisible character when it holds one.
pub(super) fn powershell_literal(s: &str) -> String {
    if invisible::contains(s) {
        return powershell_expandable(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        if is_powershell_single_quote(c) {
            out.push(c);
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// `s` as a PowerShell double-quoted string: `` ` ``, `$` and the double quotes `" “ ” „`
/// escaped with a backtick, each invisible character as a `$([char]0xHHHH)` subexpression (or
/// `$([char]::ConvertFromUtf32(0xHHHHH))` beyond the BMP).
fn powershell_expandable(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    out.push('"');
    for c in s.chars() {
        match c {
            '`' | '$' | '"' | '\u{201C}' | '\u{201D}' | '\u{201E}' => {
                out.push('`');
                out.push(c);
            }
            c if invisible::classify(c).is_some() => {
                let code = u32::from(c);
                let _ = if code <= 0xFFFF {
                    write!(out, "$([char]0x{code:04X})")
                } else {
                    write!(out, "$([char]::ConvertFromUtf32(0x{code:X}))")
                };
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether PowerShell reads `c` as a single quote.
fn is_powershell_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}')
}

/// A word POSIX shells read literally without quotes.
pub(super) fn is_posix_plain(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('=')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c))
}

/// A word PowerShell passes literally without quotes, in argument mode.
fn is_powershell_bare(s: &str) -> bool {
    let word = s
        .strip_prefix("--")
        .or_else(|| s.strip_prefix('-'))
        .unwrap_or(s);
    word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `[A-Za-z_][A-Za-z0-9_]*`: a name both shells accept as a variable name.
pub(super) fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Variables bash or zsh treat specially in an assignment (read-only, or with side effects),
/// so `NAME=value cmd` would not simply export them: these go through `env` instead.
const SHELL_SPECIAL_VARIABLES: [&str; 30] = [
    "ARGC",
    "BASHOPTS",
    "BASHPID",
    "BASH_ARGV0",
    "BASH_VERSINFO",
    "EGID",
    "EPOCHREALTIME",
    "EPOCHSECONDS",
    "ERRNO",
    "EUID",
    "FUNCNAME",
    "GID",
    "GROUPS",
    "HISTCMD",
    "LINENO",
    "PPID",
    "RANDOM",
    "SECONDS",
    "SHELLOPTS",
    "SRANDOM",
    "UID",
    "USERNAME",
    "argv",
    "cdpath",
    "fpath",
    "manpath",
    "module_path",
    "path",
    "pipestatus",
    "status",
];

/// Environment variables a process can actually be given (name non-empty, without `=` or NUL).
fn settable(env: &BTreeMap<String, String>) -> impl Iterator<Item = (&String, &String)> {
    env.iter()
        .filter(|(name, _)| !name.is_empty() && !name.contains(['=', '\0']))
}

/// The POSIX command line `[env] command args…`: variables as `NAME=value` prefixes when every
/// name is a plain identifier, else through `env 'NAME=value'…`. `command` is a shell
/// expression written as is.
pub(super) fn posix_command(
    env: &BTreeMap<String, String>,
    command: &str,
    args: &[String],
) -> String {
    let vars: Vec<_> = settable(env).collect();
    let mut words = Vec::with_capacity(vars.len() + args.len() + 3);
    let as_prefix = vars
        .iter()
        .all(|(name, _)| is_identifier(name) && !SHELL_SPECIAL_VARIABLES.contains(&name.as_str()));
    if as_prefix {
        words.extend(
            vars.iter()
                .map(|(name, value)| format!("{name}={}", posix_quote(value))),
        );
    } else {
        words.push("env".to_owned());
        if vars.iter().any(|(name, _)| name.starts_with('-')) {
            words.push("--".to_owned());
        }
        words.extend(
            vars.iter()
                .map(|(name, value)| posix_quote(&format!("{name}={value}"))),
        );
    }
    words.push(command.to_owned());
    words.extend(args.iter().map(|a| posix_quote(a)));
    words.join(" ")
}

/// The PowerShell lines `$env:NAME = 'value'`… then `command args…`. `command` is a PowerShell
/// expression written as is.
pub(super) fn powershell_command(
    env: &BTreeMap<String, String>,
    command: &str,
    args: &[String],
) -> String {
    let mut lines: Vec<String> = settable(env)
        .map(|(name, value)| {
            if invisible::contains(name) {
                // `${env:…}` cannot hold the subexpressions that spell the name.
                format!(
                    "[Environment]::SetEnvironmentVariable({}, {})",
                    powershell_literal(name),
                    powershell_literal(value)
                )
            } else {
                format!(
                    "{} = {}",
                    powershell_env_variable(name),
                    powershell_literal(value)
                )
            }
        })
        .collect();
    let mut words = vec![command.to_owned()];
    words.extend(args.iter().map(|a| powershell_quote(a)));
    lines.push(words.join(" "));
    lines.join("\n")
}

/// `$env:NAME`, or `${env:NAME}` (with `` ` ``, `{` and `}` escaped) when NAME is not an
/// identifier.
fn powershell_env_variable(name: &str) -> String {
    if is_identifier(name) {
        format!("$env:{name}")
    } else {
        let mut escaped = String::with_capacity(name.len());
        for c in name.chars() {
            if matches!(c, '`' | '{' | '}') {
                escaped.push('`');
            }
            escaped.push(c);
        }
        format!("${{env:{escaped}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_bare_words_are_only_simple_words_and_flags() {
        for (word, bare) in [
            ("acp", true),
            ("-y", true),
            ("--experimental-acp", true),
            ("--", false),
            ("-", false),
            ("---x", false),
            ("1", false),
            ("0x10", false),
            ("developer:general", false),
            ("@scope/pkg", false),
            ("a,b", false),
            ("--uid=", false),
            ("", false),
        ] {
            assert_eq!(is_powershell_bare(word), bare, "{word:?}");
        }
    }
}
