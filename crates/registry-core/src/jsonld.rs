//! An agent page's structured data: a schema.org `SoftwareApplication` in JSON-LD, for search
//! engines.
//!
//! [`software_application`] gives the text to put inside `<script type="application/ld+json">`:
//! name, version, description, licence (its URL when the manifest links one, else its name),
//! the page's canonical URL, the operating systems its distribution runs on (every one for npx
//! and uvx), `applicationCategory: DeveloperApplication`, an image when given, and, when the
//! manifest has a safe repository URL, `codeRepository` (typed as `SoftwareSourceCode` too,
//! the schema.org type that property belongs to).
//!
//! It is registry text inside a `<script>`, so it must never close it: after serialising,
//! `<`, `>` and `&` (which JSON only has inside strings) are written `\u003c`, `\u003e`,
//! `\u0026`, and U+2028/U+2029 as `\u2028`/`\u2029`; no `</script` or `<!--` can appear, and the
//! JSON means exactly the same.

use serde_json::{Map, Value, json};

use crate::model::{Entry, Os};
use crate::url::safe_link;

/// The JSON-LD of an entry's page at `page_url`, with its link-preview image when given.
pub fn software_application(entry: &Entry, page_url: &str, image_url: Option<&str>) -> String {
    let repository = entry.repository.as_deref().and_then(safe_link);
    let mut object = Map::new();
    object.insert("@context".to_owned(), json!("https://schema.org"));
    object.insert(
        "@type".to_owned(),
        match repository {
            Some(_) => json!(["SoftwareApplication", "SoftwareSourceCode"]),
            None => json!("SoftwareApplication"),
        },
    );
    object.insert("name".to_owned(), json!(entry.name));
    object.insert("softwareVersion".to_owned(), json!(entry.version));
    if !entry.description.trim().is_empty() {
        object.insert("description".to_owned(), json!(entry.description));
    }
    object.insert("url".to_owned(), json!(page_url));
    object.insert(
        "applicationCategory".to_owned(),
        json!("DeveloperApplication"),
    );
    let systems: Vec<&str> = Os::ALL
        .into_iter()
        .filter(|&os| entry.distribution.runs_on_os(os))
        .map(Os::label)
        .collect();
    if !systems.is_empty() {
        object.insert("operatingSystem".to_owned(), json!(systems));
    }
    let license_url = entry.license_url.as_deref().and_then(safe_link);
    match (license_url, entry.license.as_deref().map(str::trim)) {
        (Some(url), _) => {
            object.insert("license".to_owned(), json!(url));
        }
        (None, Some(name)) if !name.is_empty() => {
            object.insert("license".to_owned(), json!(name));
        }
        _ => {}
    }
    if let Some(repository) = repository {
        object.insert("codeRepository".to_owned(), json!(repository));
    }
    if let Some(website) = entry.website.as_deref().and_then(safe_link) {
        object.insert("sameAs".to_owned(), json!(website));
    }
    if let Some(image) = image_url {
        object.insert("image".to_owned(), json!(image));
    }
    let text = serde_json::to_string(&Value::Object(object)).expect("JSON always serialises");
    script_safe(&text)
}

/// JSON text that cannot end a `<script>` element or open a comment in it.
pub fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}
