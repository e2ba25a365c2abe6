//! `acp-preview-render --out dist/preview`: writes the listing preview's page (with no draft)
//! into Trunk's `index.html` there, rendered by the preview's own components. `cargo xtask dist`
//! runs it after Trunk.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    match native::run(std::env::args().skip(1).collect()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::fs;
    use std::path::PathBuf;

    use acp_catalog::render::{Template, render_view};
    use acp_catalog::visitor::VisitorState;
    use acp_preview::page::{Draft, PreviewApp};
    use leptos::prelude::*;

    pub fn run(args: Vec<String>) -> Result<(), String> {
        let out = match args.as_slice() {
            [flag, dir] if flag == "--out" => PathBuf::from(dir),
            _ => return Err("usage: acp-preview-render --out <dir>".to_owned()),
        };
        let index = out.join("index.html");
        let html =
            fs::read_to_string(&index).map_err(|e| format!("reading {}: {e}", index.display()))?;
        let template = Template::parse(&html).map_err(|e| e.to_string())?;
        let settings = template
            .settings()
            .map_err(|e| format!("{}: {e}", index.display()))?;
        acp_catalog::config::set(settings).map_err(|e| e.to_string())?;
        let page = render_view(&acp_catalog::config::href("/preview/"), || {
            let visitor = VisitorState::assumed();
            view! { <PreviewApp visitor draft=Draft::default() /> }
        });
        fs::write(&index, template.document(&page, true))
            .map_err(|e| format!("writing {}: {e}", index.display()))?;
        println!("rendered preview/index.html");
        Ok(())
    }
}
