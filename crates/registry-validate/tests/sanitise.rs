//! The icon sanitiser: what it keeps and drops of hostile icons (exact output), what it refuses,
//! that its output is its own sanitised form and passes every safety rule, and that the icons
//! the site serves (`public/*.svg`) are already sanitised.

use std::fs;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use registry_validate::limits::{Limit, OverLimit};
use registry_validate::{Files, IconError, Rule, Severity, sanitise_icon, validate};

const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">"#;

/// `body` inside the usual `<svg>` root.
fn icon(body: &str) -> String {
    format!("{SVG}{body}</svg>")
}

/// What the sanitiser writes for `body` kept inside the usual root.
fn kept(body: &str) -> String {
    format!("{SVG}{body}</svg>\n")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn hostile_content_is_left_out_and_shapes_kept() {
    let path = r#"<path fill="currentColor" d="M0 0h16v16H0z"/>"#;
    let table: Vec<(&str, String, String)> = vec![
        ("a plain icon", icon(path), kept(path)),
        (
            "scripts, handlers and foreignObject",
            icon(
                r#"<script>alert(1)</script><path onclick="alert(2)" fill="currentColor" d="M0 0h16v16H0z"/><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>"#,
            ),
            kept(path),
        ),
        (
            "the issue's <set> turning a link into script",
            icon(&format!(
                r#"<a href="javascript:alert(1)"><set attributeName="href" to="javascript:alert(1)"/>{path}</a>"#
            )),
            kept(path),
        ),
        (
            "animations, images, filters, metadata",
            icon(&format!(
                r#"<title>t</title><desc>d</desc><metadata><x/></metadata><image href="https://x/a.png"/><filter id="f"><feGaussianBlur stdDeviation="999"/></filter><animate attributeName="opacity" values="0;1"/>{path}"#
            )),
            kept(path),
        ),
        (
            "external references, and local ones kept",
            icon(
                r##"<use href="https://x/a.svg#i"/><use href="#p"/><path id="p" clip-path="url(https://x/c.svg#a)" mask="url(#m)" d="M0 0"/>"##,
            ),
            kept(r##"<use/><use href="#p"/><path id="p" mask="url(#m)" d="M0 0"/>"##),
        ),
        (
            "xlink:href becomes href",
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="16" height="16" viewBox="0 0 16 16"><linearGradient id="a"/><linearGradient id="b" xlink:href="#a"/></svg>"##.to_owned(),
            kept(r##"<linearGradient id="a"/><linearGradient id="b" href="#a"/>"##),
        ),
        (
            "styles keep what draws",
            icon(
                r#"<style>@import url(https://x/a.css); .a{fill:currentColor;behavior:url(x.htc)} .b{fill:url(https://x)} a:hover{fill:red}</style><path class="a" style="stroke: currentColor; background: url(https://x); mask: u\72l(https://x)" d="M0 0"/>"#,
            ),
            // An escape anywhere in a style attribute drops it whole.
            kept(r#"<style>.a{fill:currentColor}</style><path class="a" d="M0 0"/>"#),
        ),
        (
            "a stylesheet with an escape goes whole",
            icon(r#"<style>@\69mport "x.css"; .a{fill:none}</style><path d="M0 0"/>"#),
            kept(r#"<path d="M0 0"/>"#),
        ),
        (
            "image-set in a presentation attribute",
            icon(r#"<path fill="image-set('https://x/a.png' 1x)" stroke="currentColor" d="M0 0"/>"#),
            kept(r#"<path stroke="currentColor" d="M0 0"/>"#),
        ),
        (
            "other namespaces, comments and instructions",
            r#"<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="16" height="16" viewBox="0 0 16 16" inkscape:version="1"><?pi x?><inkscape:grid/><path inkscape:label="l" d="M0 0"/></svg>"#.to_owned(),
            kept(r#"<path d="M0 0"/>"#),
        ),
        (
            "text kept, escaped",
            icon(r#"<text x="8" y="12" font-family="'Inter', sans-serif" xml:space="preserve">a &lt;b&gt; &amp; "c"<tspan> d</tspan></text>"#),
            kept(r#"<text x="8" y="12" font-family="'Inter', sans-serif" xml:space="preserve">a &lt;b&gt; &amp; "c"<tspan> d</tspan></text>"#),
        ),
        (
            "quotes in values are escaped",
            icon(r#"<text font-family='"Inter"'>9</text>"#),
            kept(r#"<text font-family="&quot;Inter&quot;">9</text>"#),
        ),
        (
            "whitespace between elements goes, empty groups close",
            icon("\n  <g>\n    <path d=\"M0 0\"/>\n  </g>\n  <g> </g>\n"),
            kept(r#"<g><path d="M0 0"/></g><g/>"#),
        ),
        (
            "a root without xmlns gets one; a BOM and a plain DOCTYPE go",
            "\u{feff}<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\"><svg width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"><path d=\"M0 0\"/></svg>".to_owned(),
            kept(r#"<path d="M0 0"/>"#),
        ),
        (
            "line breaks in values become the spaces they are read as",
            icon("<path d=\"M0 0&#xA;h1\n\tv1\"/>"),
            kept(r#"<path d="M0 0 h1  v1"/>"#),
        ),
        (
            "values that are not plain characters go",
            icon(r#"<path id="a:b" transform="translate(1 1) expression(x)" d="M0 0" fill="currentColor;x"/>"#),
            kept(r#"<path d="M0 0"/>"#),
        ),
    ];
    for (name, input, expected) in table {
        let got = sanitise_icon(&input);
        assert_eq!(got.as_deref(), Ok(expected.as_str()), "{name}");
        assert_eq!(
            sanitise_icon(&expected).as_deref(),
            Ok(expected.as_str()),
            "{name}: idempotent"
        );
    }
}

#[test]
fn what_cannot_be_parsed_safely_is_refused() {
    let table: Vec<(&str, String, IconError)> = vec![
        (
            "entities",
            format!(
                "<!DOCTYPE svg [<!ENTITY s \"&#60;script&#62;alert(1)&#60;/script&#62;\">]>{}",
                icon("&s;")
            ),
            IconError::Doctype,
        ),
        (
            "the 65 KB blow-up",
            format!(
                "<!DOCTYPE svg [<!ENTITY a \"{}\">]>{}",
                "x".repeat(5_000),
                icon(&"&a;".repeat(20_000))
            ),
            IconError::Doctype,
        ),
        (
            "3.5 MB of path",
            icon(&format!("<path d=\"M0 0{}\"/>", "l1 1".repeat(880_000))),
            IconError::TooLarge(OverLimit {
                limit: Limit::Bytes,
                found: 3_520_105,
            }),
        ),
        (
            "too deep",
            icon(&format!("{}{}", "<g>".repeat(32), "</g>".repeat(32))),
            IconError::TooLarge(OverLimit {
                limit: Limit::Depth,
                found: 33,
            }),
        ),
        (
            "too many elements",
            icon(&"<g/>".repeat(2_000)),
            IconError::TooLarge(OverLimit {
                limit: Limit::Elements,
                found: 2_001,
            }),
        ),
        (
            "too many path segments",
            icon(&format!("<path d=\"M0 0{}\"/>", "h1".repeat(10_000))),
            IconError::TooLarge(OverLimit {
                limit: Limit::PathSegments,
                found: 10_001,
            }),
        ),
        (
            "not an svg",
            "<html><script>alert(1)</script></html>".to_owned(),
            IconError::NotSvg("html".to_owned()),
        ),
        (
            "not XML",
            icon("<path>"),
            IconError::Xml("expected 'path' tag, not 'svg' at 1:90".to_owned()),
        ),
    ];
    for (name, input, expected) in table {
        assert_eq!(sanitise_icon(&input), Err(expected), "{name}");
    }
    // The limits themselves are allowed.
    let at_limits = [
        icon(&format!("{}{}", "<g>".repeat(31), "</g>".repeat(31))),
        icon(&"<g/>".repeat(1_999)),
        icon(&format!("<path d=\"M0 0{}\"/>", "h1".repeat(9_999))),
    ];
    for input in at_limits {
        assert!(sanitise_icon(&input).is_ok(), "{}", &input[..120]);
    }
}

/// The site serves `public/*.svg` from its own origin: each must be its own sanitised form.
#[test]
fn every_bundled_icon_is_sanitised() {
    let mut checked = 0;
    for entry in fs::read_dir(root().join("public")).expect("public/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "svg") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("UTF-8");
        assert_eq!(
            sanitise_icon(&text).as_deref(),
            Ok(text.as_str()),
            "{} is not its sanitised form",
            path.display()
        );
        checked += 1;
    }
    assert_eq!(checked, 90, "the bundled icons and the favicon");
}

/// Every real icon the validator accepts sanitises, to text that sanitises to itself and still
/// passes the validator; the real icons it rejects for safety or size are refused or cleaned.
#[test]
fn real_icons_sanitise_and_stay_valid() {
    let mut icons = Vec::new();
    for dataset in ["real-registry-2026", "real-registry-2026-02"] {
        let dist = root().join("tests/fixtures").join(dataset).join("dist");
        for entry in fs::read_dir(&dist).expect("dist/") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "svg") {
                icons.push(path);
            }
        }
    }
    assert_eq!(icons.len(), 100);
    for path in icons {
        let text = fs::read_to_string(&path).expect("UTF-8");
        let clean = sanitise_icon(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            sanitise_icon(&clean).as_ref(),
            Ok(&clean),
            "{}",
            path.display()
        );
        let before = icon_errors(&text);
        assert_eq!(before, [], "{}: the published icon passes", path.display());
        assert_eq!(icon_errors(&clean), before, "{}", path.display());
    }
}

/// Found by the `icon` fuzz target: an `<svg>` root in another namespace (a misspelt xmlns,
/// only a validator warning) was sanitised to a lone newline, which is not an icon at all, and
/// `build` published it. It is now the root alone, in the SVG namespace, drawing nothing as the
/// original does; the same for a root with no namespace but foreign children.
#[test]
fn a_root_in_another_namespace_is_still_an_icon() {
    let table = [
        (
            "<svg xmlns=\"http://www.w3.org/2000j/svg\" width=\"16\" height=\"16\" viewBox=\"0 0 16 16\">\n  \
             <path fill=\"currentColor\" d=\"M8 1l6 3.5v7L8 15l-6-3.5v-7L8 1z\"/>\n</svg>\n",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\" viewBox=\"0 0 16 16\"/>\n",
        ),
        (
            "<x:svg xmlns:x=\"urn:x\" width=\"16\"><x:path d=\"M0 0h1\"/></x:svg>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\"/>\n",
        ),
    ];
    for (input, expected) in table {
        let clean = sanitise_icon(input).unwrap();
        assert_eq!(clean, expected, "{input}");
        roxmltree::Document::parse(&clean).expect("well-formed");
        assert_eq!(sanitise_icon(&clean).as_ref(), Ok(&clean), "idempotent");
    }
    assert_eq!(
        icon_errors(table[0].0),
        [],
        "the validator accepts the fuzzer's icon (with a warning)"
    );
}

/// The icon errors the validator finds in `svg` as `a/icon.svg`.
fn icon_errors(svg: &str) -> Vec<Rule> {
    let mut files = Files::new();
    files.insert(
        "a/agent.json",
        br#"{"id": "a", "name": "A", "version": "1.0.0", "description": "d", "distribution": {"npx": {"package": "a@1.0.0"}}}"#.to_vec(),
    );
    files.insert("a/icon.svg", svg.as_bytes().to_vec());
    validate(&files)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error && d.file == "a/icon.svg")
        .map(|d| d.rule)
        .collect()
}

/// The rules no sanitised icon may break.
const SAFETY: [Rule; 9] = [
    Rule::IconScript,
    Rule::IconEventHandler,
    Rule::IconExternalReference,
    Rule::IconForeignObject,
    Rule::IconDtd,
    Rule::IconAnimation,
    Rule::IconCssEscape,
    Rule::IconTooLarge,
    Rule::IconXml,
];

/// The elements a sanitised icon may have.
const SHAPES: [&str; 21] = [
    "circle",
    "clipPath",
    "defs",
    "ellipse",
    "g",
    "line",
    "linearGradient",
    "mask",
    "path",
    "pattern",
    "polygon",
    "polyline",
    "radialGradient",
    "rect",
    "stop",
    "style",
    "svg",
    "symbol",
    "text",
    "tspan",
    "use",
];

/// Element names, hostile ones among them.
const ELEMENTS: [&str; 16] = [
    "g",
    "path",
    "rect",
    "text",
    "style",
    "a",
    "use",
    "script",
    "set",
    "animate",
    "image",
    "foreignObject",
    "linearGradient",
    "stop",
    "svg",
    "x:y",
];
/// Attributes, hostile ones among them.
const ATTRIBUTES: [&str; 14] = [
    "d",
    "fill",
    "style",
    "href",
    "xlink:href",
    "onload",
    "clip-path",
    "id",
    "class",
    "attributeName",
    "to",
    "transform",
    "font-family",
    "x:z",
];
/// Values, hostile ones among them.
const VALUES: [&str; 16] = [
    "M0 0h1",
    "currentColor",
    "#a",
    "url(#a)",
    "url(https://x)",
    "javascript:alert(1)",
    "href",
    "onclick",
    "fill: u\\72l(x)",
    "fill:currentColor;mask:image-set('x' 1x)",
    "&quot;&lt;&amp;",
    "a &#10; b",
    "'Inter'",
    "rotate(1) translate(2 3)",
    "",
    "é \u{202E}",
];
/// Text and style content.
const TEXTS: [&str; 7] = [
    "x",
    ".a{fill:none}",
    "@import 'x'; .b{fill:url(https://x)}",
    "&lt;script&gt;",
    "a ]]&gt; b",
    "<![CDATA[ .c{stroke:red} ]]>",
    " ",
];

/// An element as SVG markup, with random attributes and children.
fn markup() -> impl Strategy<Value = String> {
    let attribute = (
        prop::sample::select(&ATTRIBUTES[..]),
        prop::sample::select(&VALUES[..]),
    )
        .prop_map(|(name, value)| format!(" {name}=\"{value}\""));
    let leaf = (
        prop::sample::select(&ELEMENTS[..]),
        prop::collection::vec(attribute.clone(), 0..4),
        prop::option::of(prop::sample::select(&TEXTS[..])),
    )
        .prop_map(|(name, attributes, text)| {
            format!(
                "<{name}{}>{}</{name}>",
                attributes.concat(),
                text.unwrap_or("")
            )
        });
    leaf.prop_recursive(4, 24, 4, move |inner| {
        (
            prop::sample::select(&ELEMENTS[..]),
            prop::collection::vec(attribute.clone(), 0..3),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(name, attributes, children)| {
                format!(
                    "<{name}{}>{}</{name}>",
                    attributes.concat(),
                    children.concat()
                )
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever goes in, what comes out is well-formed, is its own sanitised form, and breaks
    /// no safety rule.
    #[test]
    fn sanitised_icons_are_safe_and_stable(body in prop::collection::vec(markup(), 0..5)) {
        let input = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:x="urn:x" width="16" height="16">{}</svg>"#,
            body.concat()
        );
        if let Ok(clean) = sanitise_icon(&input) {
            let again = sanitise_icon(&clean);
            prop_assert_eq!(again.as_ref(), Ok(&clean), "from {}", input);
            let broken: Vec<Rule> = icon_errors(&clean)
                .into_iter()
                .filter(|rule| SAFETY.contains(rule))
                .collect();
            prop_assert_eq!(broken, Vec::<Rule>::new(), "{} from {}", clean, input);
            let tree = roxmltree::Document::parse(&clean).expect("well-formed");
            for node in tree.descendants().filter(roxmltree::Node::is_element) {
                let name = node.tag_name().name();
                prop_assert!(SHAPES.contains(&name), "<{}> in {}", name, clean);
                for attribute in node.attributes() {
                    prop_assert!(!attribute.name().starts_with("on"), "{} in {}", attribute.name(), clean);
                    let value = attribute.value().to_ascii_lowercase();
                    prop_assert!(!value.contains("javascript") && !value.contains("url(h"), "{} in {}", value, clean);
                    if attribute.name() == "href" {
                        prop_assert!(value.starts_with('#'), "{} in {}", value, clean);
                    }
                }
            }
        }
    }

    /// An icon the validator accepts is never refused by the sanitiser.
    #[test]
    fn accepted_icons_always_sanitise(body in prop::collection::vec(markup(), 0..5)) {
        let input = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" fill="currentColor">{}</svg>"#,
            body.concat()
        );
        if icon_errors(&input).is_empty() {
            prop_assert!(sanitise_icon(&input).is_ok(), "{}", input);
        }
    }
}
