//! A [`LaunchCommand`] written into each ACP client's configuration format.
//!
//! The formats follow each client's own source or documentation:
//!
//! - Zed: `CustomAgentServerSettings` in `crates/settings_content/src/agent.rs`
//!   (zed-industries/zed) — `agent_servers` entries tagged by `"type"`: `"custom"` with
//!   `command`, `args`, `env`, or `"registry"` for an agent of the ACP registry, keyed by its
//!   id — and `docs/src/ai/external-agents.md`.
//! - JetBrains IDEs: "Agent Client Protocol (ACP)" in the AI Assistant help
//!   (jetbrains.com/help/ai-assistant/acp.html): `~/.jetbrains/acp.json` with
//!   `agent_servers` keyed by display name, each with `command`, `args`, `env`.
//! - avante.nvim: `acp_providers` in `lua/avante/config.lua` (yetone/avante.nvim), selected by
//!   `provider`; `lua/avante/libs/acp_client.lua` spawns the command with only `PATH` and the
//!   configured `env`.
//! - CodeCompanion.nvim: `doc/configuration/adapters-acp.md` and
//!   `lua/codecompanion/adapters/acp/*.lua` (olimorris/codecompanion.nvim): an ACP adapter
//!   under `adapters.acp`, extended from a built-in one, with `commands.default` as the argv.
//!   Its `env` values are interpreted (a `cmd:` prefix runs a command, a variable's name reads
//!   that variable, a dotted path reads the adapter's table) unless they are functions, so each
//!   value is written as a function returning the exact string; and `${NAME}` in a command is
//!   replaced by the `env` value of that name.
//! - Emacs agent-shell: `agent-shell-make-agent-config` and `agent-shell-agent-configs` in
//!   `agent-shell.el`, and the per-agent files such as `agent-shell-qoder.el`
//!   (xenodium/agent-shell); the client comes from `acp-make-client` in `acp.el`
//!   (xenodium/acp.el), whose `:environment-variables` are `"NAME=value"` strings.

use serde_json::{Map, Value, json};

use super::quote::is_identifier;
use super::{ClientSnippet, Escapes, LaunchCommand, Note, invisible_note, sort_notes};
use crate::invisible;
use crate::model::{Entry, Kind, Os};

/// Zed's registry form, `{"agent_servers": {"<id>": {"type": "registry"}}}`: Zed downloads,
/// runs and updates the agent itself. `None` for extensions, which are not agent servers.
pub fn zed_registry_snippet(entry: &Entry) -> Option<ClientSnippet> {
    if entry.kind != Kind::Agent {
        return None;
    }
    let value = json!({ "agent_servers": { entry.id.clone(): { "type": "registry" } } });
    let invisible = invisible::collect([entry.id.as_str()]);
    Some(ClientSnippet {
        client: super::Client::Zed,
        title: "Zed: install from the ACP registry".to_owned(),
        file: zed_settings_file(None).to_owned(),
        language: "json",
        code: pretty_json(&value),
        notes: with_invisible(
            vec![Note::requirement("Zed 0.221 or later")],
            &invisible,
            Escapes::Json,
        ),
        invisible,
    })
}

/// Zed's custom-command form: `{"agent_servers": {"<Name>": {"type": "custom", "command": …,
/// "args": […], "env": {…}}}}`.
pub fn zed_custom_snippet(entry: &Entry, launch: &LaunchCommand, os: Option<Os>) -> ClientSnippet {
    let mut server = Map::new();
    server.insert("type".to_owned(), json!("custom"));
    server.extend(launch_fields(launch));
    let value = json!({ "agent_servers": { display_name(entry): server } });
    let invisible = launch_invisible(entry, launch);
    ClientSnippet {
        client: super::Client::Zed,
        title: "Zed: run this command".to_owned(),
        file: zed_settings_file(os).to_owned(),
        language: "json",
        code: pretty_json(&value),
        notes: with_invisible(launch.notes.clone(), &invisible, Escapes::Json),
        invisible,
    }
}

/// JetBrains IDEs' `acp.json`: `{"agent_servers": {"<Name>": {"command": …, "args": […],
/// "env": {…}}}}`.
pub fn jetbrains_snippet(entry: &Entry, launch: &LaunchCommand, os: Option<Os>) -> ClientSnippet {
    let server: Map<String, Value> = launch_fields(launch).collect();
    let value = json!({ "agent_servers": { display_name(entry): server } });
    let invisible = launch_invisible(entry, launch);
    ClientSnippet {
        client: super::Client::JetBrains,
        title: "JetBrains IDEs: add to acp.json".to_owned(),
        file: match os {
            Some(Os::Windows) => r"%USERPROFILE%\.jetbrains\acp.json",
            _ => "~/.jetbrains/acp.json",
        }
        .to_owned(),
        language: "json",
        code: pretty_json(&value),
        notes: with_invisible(launch.notes.clone(), &invisible, Escapes::Json),
        invisible,
    }
}

/// avante.nvim: `require("avante").setup({ provider = "<id>", acp_providers = { ["<id>"] = {
/// command = …, args = { … }, env = { … } } } })`.
pub fn avante_snippet(entry: &Entry, launch: &LaunchCommand, os: Option<Os>) -> ClientSnippet {
    let id = lua_string(&entry.id);
    let mut code = String::from("require(\"avante\").setup({\n");
    code.push_str(&format!("  provider = {id},\n"));
    code.push_str("  acp_providers = {\n");
    code.push_str(&format!("    [{id}] = {{\n"));
    code.push_str(&format!(
        "      command = {},\n",
        lua_string(&launch.command)
    ));
    code.push_str(&format!("      args = {},\n", lua_list(&launch.args)));
    if !launch.env.is_empty() {
        code.push_str("      env = {\n");
        for (name, value) in &launch.env {
            code.push_str(&format!(
                "        {} = {},\n",
                lua_key(name),
                lua_string(value)
            ));
        }
        code.push_str("      },\n");
    }
    code.push_str("    },\n  },\n})");

    let mut notes = launch.notes.clone();
    notes.push(Note::caveat(
        "avante.nvim starts the agent with PATH and these variables only: add any other the \
         agent needs, such as HOME = os.getenv(\"HOME\").",
    ));
    let invisible = launch_invisible(entry, launch);
    ClientSnippet {
        client: super::Client::Avante,
        title: "avante.nvim: add an ACP provider".to_owned(),
        file: neovim_init_file(os).to_owned(),
        language: "lua",
        code,
        notes: with_invisible(notes, &invisible, Escapes::Lua),
        invisible,
    }
}

/// CodeCompanion.nvim: an adapter under `adapters.acp`, extended from the built-in `goose`
/// adapter (which has no agent-specific authentication, environment or extra commands) with
/// the agent's names, `commands.default` and `env`.
pub fn codecompanion_snippet(
    entry: &Entry,
    launch: &LaunchCommand,
    os: Option<Os>,
) -> ClientSnippet {
    let mut argv = vec![launch.command.clone()];
    argv.extend(launch.args.iter().cloned());
    let mut code = String::from("require(\"codecompanion\").setup({\n");
    code.push_str("  adapters = {\n    acp = {\n");
    code.push_str(&format!("      [{}] = function()\n", lua_string(&entry.id)));
    code.push_str("        return require(\"codecompanion.adapters\").extend(\"goose\", {\n");
    code.push_str(&format!("          name = {},\n", lua_string(&entry.id)));
    code.push_str(&format!(
        "          formatted_name = {},\n",
        lua_string(&display_name(entry))
    ));
    code.push_str(&format!(
        "          commands = {{ default = {} }},\n",
        lua_list(&argv)
    ));
    if !launch.env.is_empty() {
        code.push_str(
            "          -- Functions, so that CodeCompanion passes each value exactly as written.\n",
        );
        code.push_str("          env = {\n");
        for (name, value) in &launch.env {
            code.push_str(&format!(
                "            {} = function() return {} end,\n",
                lua_key(name),
                lua_string(value)
            ));
        }
        code.push_str("          },\n");
    }
    code.push_str("        })\n      end,\n    },\n  },\n})");

    let mut notes = launch.notes.clone();
    let substituted: Vec<&String> = launch
        .env
        .keys()
        .filter(|name| argv.iter().any(|a| a.contains(&format!("${{{name}}}"))))
        .collect();
    if !substituted.is_empty() {
        notes.push(Note::caveat(format!(
            "CodeCompanion replaces ${{NAME}} in the command with the env value of that name, so \
             arguments containing {} will not be passed as written.",
            substituted
                .iter()
                .map(|n| format!("${{{n}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let invisible = launch_invisible(entry, launch);
    ClientSnippet {
        client: super::Client::CodeCompanion,
        title: "CodeCompanion.nvim: add an ACP adapter".to_owned(),
        file: neovim_init_file(os).to_owned(),
        language: "lua",
        code,
        notes: with_invisible(notes, &invisible, Escapes::Lua),
        invisible,
    }
}

/// Emacs agent-shell: an `agent-shell-make-agent-config` added to `agent-shell-agent-configs`,
/// whose client is `acp-make-client` with `:command`, `:command-params` and
/// `:environment-variables`.
pub fn agent_shell_snippet(entry: &Entry, launch: &LaunchCommand, os: Option<Os>) -> ClientSnippet {
    let name = elisp_string(&display_name(entry));
    let prompt = elisp_string(&format!("{}> ", display_name(entry)));
    let env: Vec<String> = launch.env.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let mut code = String::from("(with-eval-after-load 'agent-shell\n");
    code.push_str("  (add-to-list 'agent-shell-agent-configs\n");
    code.push_str("               (agent-shell-make-agent-config\n");
    code.push_str(&format!(
        "                :identifier {}\n",
        elisp_symbol(&entry.id)
    ));
    code.push_str(&format!("                :mode-line-name {name}\n"));
    code.push_str(&format!("                :buffer-name {name}\n"));
    code.push_str(&format!("                :shell-prompt {prompt}\n"));
    code.push_str(&format!(
        "                :shell-prompt-regexp (regexp-quote {prompt})\n"
    ));
    code.push_str("                :client-maker\n");
    code.push_str("                (lambda (buffer)\n");
    code.push_str("                  (acp-make-client\n");
    code.push_str(&format!(
        "                   :command {}\n",
        elisp_string(&launch.command)
    ));
    code.push_str(&format!(
        "                   :command-params {}\n",
        elisp_list(&launch.args)
    ));
    code.push_str(&format!(
        "                   :environment-variables {}\n",
        elisp_list(&env)
    ));
    code.push_str("                   :context-buffer buffer)))))");
    let invisible = launch_invisible(entry, launch);
    ClientSnippet {
        client: super::Client::AgentShell,
        title: "agent-shell: add an agent".to_owned(),
        file: match os {
            Some(Os::Windows) => r"%APPDATA%\.emacs.d\init.el",
            _ => "~/.emacs.d/init.el",
        }
        .to_owned(),
        language: "elisp",
        code,
        notes: with_invisible(launch.notes.clone(), &invisible, Escapes::Elisp),
        invisible,
    }
}

/// The invisible characters a client snippet of `entry` running `launch` holds: in the name
/// and id it shows, the command, its arguments and environment.
fn launch_invisible(entry: &Entry, launch: &LaunchCommand) -> Vec<char> {
    invisible::collect(
        [entry.name.as_str(), &entry.id, &launch.command]
            .into_iter()
            .chain(launch.args.iter().map(String::as_str))
            .chain(launch.env.keys().map(String::as_str))
            .chain(launch.env.values().map(String::as_str)),
    )
}

/// `notes` with the warning about `invisible` characters as their first caveat, in order.
fn with_invisible(mut notes: Vec<Note>, invisible: &[char], escapes: Escapes) -> Vec<Note> {
    if let Some(note) = invisible_note(invisible, escapes) {
        notes.insert(0, note);
    }
    sort_notes(&mut notes);
    notes
}

/// `s` as a Lua double-quoted string literal: `\` `"` and newlines escaped, other control and
/// invisible characters ([`crate::invisible`]) as the three-digit `\ddd` escapes of their UTF-8
/// bytes (so a following digit is never read into the escape; Lua 5.1 and LuaJIT, which Neovim
/// runs, read them), everything else — UTF-8 included — kept as is.
///
/// ```
/// use registry_core::snippets::lua_string;
/// assert_eq!(lua_string("a \"b\"\\\n\u{1}2"), r#""a \"b\"\\\n\0012""#);
/// assert_eq!(lua_string("x\u{202E}"), r#""x\226\128\174""#);
/// ```
pub fn lua_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str(r"\n"),
            '\r' => out.push_str(r"\r"),
            '\t' => out.push_str(r"\t"),
            c if invisible::classify(c).is_some() => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    out.push_str(&format!("\\{byte:03}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as an Emacs Lisp string literal: `\` and `"` escaped, newlines and tabs as `\n` and
/// `\t`, other ASCII control characters as three-digit octal `\NNN`, other invisible
/// characters ([`crate::invisible`]) as `\uXXXX` (`\UXXXXXXXX` beyond the BMP), everything else
/// kept as is.
///
/// ```
/// use registry_core::snippets::elisp_string;
/// assert_eq!(elisp_string("a \"b\"\\\n\u{1b}"), r#""a \"b\"\\\n\033""#);
/// assert_eq!(elisp_string("x\u{202E}\u{85}"), r#""x\u202E\u0085""#);
/// ```
pub fn elisp_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c if invisible::classify(c).is_some() => match u32::from(c) {
                code @ ..=0xFFFF => out.push_str(&format!("\\u{code:04X}")),
                code => out.push_str(&format!("\\U{code:08X}")),
            },
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `command`, `args` and `env` as JSON fields, in that order.
fn launch_fields(launch: &LaunchCommand) -> impl Iterator<Item = (String, Value)> {
    let env: Map<String, Value> = launch
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    [
        ("command".to_owned(), json!(launch.command)),
        ("args".to_owned(), json!(launch.args)),
        ("env".to_owned(), Value::Object(env)),
    ]
    .into_iter()
}

/// Pretty JSON with two-space indentation, every invisible character ([`crate::invisible`])
/// written as a `\uXXXX` escape (serde_json escapes only C0 controls).
fn pretty_json(value: &Value) -> String {
    let json = serde_json::to_string_pretty(value).expect("a JSON value always serializes");
    json_escape_invisible(&json)
}

/// A JSON text with each raw invisible character written as `\uXXXX` (a surrogate pair beyond
/// the BMP): the same JSON value, with no raw invisible character inside a string. The tab,
/// line feed and carriage return are left alone: in valid JSON they are only ever whitespace
/// between values (a string must escape them), and every other invisible character can only be
/// inside a string, where the escape means the same.
///
/// ```
/// use registry_core::snippets::json_escape_invisible;
/// assert_eq!(json_escape_invisible("[\"a\u{202E}\u{E0041}\"]"), r#"["a\u202e\udb40\udc41"]"#);
/// ```
pub fn json_escape_invisible(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if invisible::classify(c).is_some() && !matches!(c, '\t' | '\n' | '\r') {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The name a client shows: the entry's name, or its id when the name is blank.
fn display_name(entry: &Entry) -> String {
    if entry.name.trim().is_empty() {
        entry.id.clone()
    } else {
        entry.name.clone()
    }
}

/// Zed's user settings file on this operating system.
fn zed_settings_file(os: Option<Os>) -> &'static str {
    match os {
        Some(Os::Windows) => r"%APPDATA%\Zed\settings.json",
        _ => "~/.config/zed/settings.json",
    }
}

/// Neovim's `init.lua` on this operating system.
fn neovim_init_file(os: Option<Os>) -> &'static str {
    match os {
        Some(Os::Windows) => r"%LOCALAPPDATA%\nvim\init.lua",
        _ => "~/.config/nvim/init.lua",
    }
}

/// `{ "a", "b" }`, or `{}`.
fn lua_list(items: &[String]) -> String {
    if items.is_empty() {
        "{}".to_owned()
    } else {
        let items: Vec<String> = items.iter().map(|s| lua_string(s)).collect();
        format!("{{ {} }}", items.join(", "))
    }
}

/// A Lua table key: `NAME` when it is an identifier and not a keyword, `["…"]` otherwise.
fn lua_key(name: &str) -> String {
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    if is_identifier(name) && !KEYWORDS.contains(&name) {
        name.to_owned()
    } else {
        format!("[{}]", lua_string(name))
    }
}

/// `'("a" "b")`, or `nil`.
fn elisp_list(items: &[String]) -> String {
    if items.is_empty() {
        "nil".to_owned()
    } else {
        let items: Vec<String> = items.iter().map(|s| elisp_string(s)).collect();
        format!("'({})", items.join(" "))
    }
}

/// `'my-agent` for a plain slug, `(intern "…")` for anything the reader could take for
/// something else (a number, a dotted pair…).
fn elisp_symbol(id: &str) -> String {
    let plain = id.starts_with(|c: char| c.is_ascii_alphabetic())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain {
        format!("'{id}")
    } else {
        format!("(intern {})", elisp_string(id))
    }
}
