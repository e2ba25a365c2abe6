//! Icons re-written from their parsed tree, keeping only what draws.
//!
//! [`sanitise_icon`] parses an icon (bounded by [`limits`](super::limits)), then writes it
//! again from the tree with an allow-list: SVG shapes, groups, gradients, clip paths, masks,
//! patterns, text and plain style rules; attributes that give geometry and paint, with values of
//! plain characters that load nothing (`url(` only around a `#fragment`, `href` only to a
//! `#fragment` of `<use>` and gradients). Everything else is left out: scripts, event handlers,
//! `<foreignObject>`, animations, links, images, filters, metadata, comments, processing
//! instructions, other namespaces. A DOCTYPE is refused rather than expanded.
//!
//! What comes out can only be shapes, is well-formed, and is its own sanitised form: sanitising
//! it again gives the same text. The registry's valid icons come out drawing the same, since
//! they use nothing that is left out (`public/*.svg` are their sanitised forms).

use roxmltree::{Document, Node, ParsingOptions};

use super::css::{is_fragment, safe_value, sanitise_declarations, sanitise_stylesheet};
use super::limits::{self, Limit, MAX_BYTES, MAX_NODES, OverLimit};
use registry_core::icon_bounds::doctype;

use super::{SVG_NAMESPACE, XLINK_NAMESPACE, blank};

/// The XML namespace, of `xml:space`.
const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";

/// Elements written out, with their allowed attributes and children.
const ELEMENTS: [&str; 21] = [
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

/// Elements left out themselves, their children written in their place: a link around shapes
/// draws the shapes.
const UNWRAPPED: [&str; 1] = ["a"];

/// Elements whose text is drawn.
const TEXT_ELEMENTS: [&str; 2] = ["text", "tspan"];

/// Elements whose `href` (a `#fragment`) is kept: the shape `<use>` draws again, the gradient
/// or pattern another one inherits from.
const HREF_ELEMENTS: [&str; 4] = ["use", "linearGradient", "radialGradient", "pattern"];

/// Attributes written out (with a safe value): geometry, units, paint and text presentation.
const ATTRIBUTES: [&str; 87] = [
    "alignment-baseline",
    "baseline-shift",
    "class",
    "clip-path",
    "clip-rule",
    "clipPathUnits",
    "color",
    "color-interpolation",
    "cx",
    "cy",
    "d",
    "display",
    "dominant-baseline",
    "dx",
    "dy",
    "fill",
    "fill-opacity",
    "fill-rule",
    "font-family",
    "font-size",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "fr",
    "fx",
    "fy",
    "gradientTransform",
    "gradientUnits",
    "height",
    "href",
    "id",
    "isolation",
    "lengthAdjust",
    "letter-spacing",
    "mask",
    "mask-type",
    "maskContentUnits",
    "maskUnits",
    "mix-blend-mode",
    "offset",
    "opacity",
    "overflow",
    "paint-order",
    "pathLength",
    "patternContentUnits",
    "patternTransform",
    "patternUnits",
    "points",
    "preserveAspectRatio",
    "r",
    "rotate",
    "rx",
    "ry",
    "shape-rendering",
    "spreadMethod",
    "stop-color",
    "stop-opacity",
    "stroke",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-opacity",
    "stroke-width",
    "style",
    "text-anchor",
    "text-decoration",
    "text-rendering",
    "textLength",
    "transform",
    "transform-box",
    "transform-origin",
    "vector-effect",
    "viewBox",
    "visibility",
    "width",
    "word-spacing",
    "writing-mode",
    "x",
    "x1",
    "x2",
    "xml:space",
    "y",
    "y1",
    "y2",
];

/// Why an icon could not be sanitised. Each is also a validator error, so an icon the
/// validator accepts always sanitises.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IconError {
    /// Over one of the [limits](super::limits).
    #[error(
        "the icon has {} {} or more, over the {} an icon may have",
        .0.found,
        .0.limit,
        .0.limit.max()
    )]
    TooLarge(OverLimit),
    /// Its DOCTYPE declares entities, which could hide markup or expand into megabytes.
    #[error("the icon's <!DOCTYPE> declares entities, which could hide markup or blow up in size")]
    Doctype,
    /// It is not well-formed XML.
    #[error("the icon is not well-formed XML: {0}")]
    Xml(String),
    /// Its root element is not `<svg>`.
    #[error("the icon's root element is <{0}>, not <svg>")]
    NotSvg(String),
}

/// `icon` re-written with only what draws (see the [module](self) documentation): the text to
/// serve, store or show, or why there is none.
///
/// ```
/// use registry_validate::sanitise_icon;
/// let icon = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="alert(1)">
///   <script>alert(2)</script>
///   <a href="javascript:alert(3)"><path fill="currentColor" d="M0 0h16v16H0z"/></a>
/// </svg>"#;
/// assert_eq!(
///     sanitise_icon(icon).unwrap(),
///     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\">\
///      <path fill=\"currentColor\" d=\"M0 0h16v16H0z\"/></svg>\n"
/// );
/// ```
pub fn sanitise_icon(icon: &str) -> Result<String, IconError> {
    let body = icon.strip_prefix('\u{feff}').unwrap_or(icon);
    if icon.len() > MAX_BYTES {
        return Err(IconError::TooLarge(OverLimit {
            limit: Limit::Bytes,
            found: icon.len(),
        }));
    }
    let without_doctype;
    let body = match doctype(body) {
        Some(doctype) if doctype.declares => return Err(IconError::Doctype),
        Some(doctype) => {
            without_doctype = blank(body, doctype.range);
            without_doctype.as_str()
        }
        None => body,
    };
    let document = parse(body)?;
    let root = document.root_element();
    if root.tag_name().name() != "svg" {
        return Err(IconError::NotSvg(root.tag_name().name().to_owned()));
    }
    if let Some(over) = limits::measure(&document) {
        return Err(IconError::TooLarge(over));
    }
    let mut out = String::with_capacity(icon.len());
    write_element(&mut out, root, true);
    out.push('\n');
    Ok(out)
}

/// Parses an icon without its DOCTYPE, within the node limit.
fn parse(body: &str) -> Result<Document<'_>, IconError> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(body, options).map_err(|err| match err {
        roxmltree::Error::NodesLimitReached => IconError::TooLarge(OverLimit {
            limit: Limit::Elements,
            found: MAX_NODES as usize,
        }),
        roxmltree::Error::DtdDetected => IconError::Doctype,
        err => IconError::Xml(err.to_string()),
    })
}

/// Writes `node` (an element) and what it keeps of its subtree. The depth is bounded by
/// [`limits::MAX_DEPTH`], checked before.
fn write_element(out: &mut String, node: Node<'_, '_>, root: bool) {
    let name = node.tag_name().name();
    // The root `<svg>` is always written, in the SVG namespace: one in another namespace (a
    // validator warning, browsers draw nothing) keeps its size and loses its children, which
    // are in that namespace too, so the output is still an icon, empty as the original draws.
    if !root && !matches!(node.tag_name().namespace(), None | Some(SVG_NAMESPACE)) {
        return;
    }
    if UNWRAPPED.contains(&name) {
        for child in node.children().filter(Node::is_element) {
            write_element(out, child, false);
        }
        return;
    }
    if !ELEMENTS.contains(&name) {
        return;
    }
    if name == "style" {
        let css: String = node.children().filter_map(|c| c.text()).collect();
        let css = sanitise_stylesheet(&css);
        if !css.is_empty() {
            out.push_str("<style>");
            escape_text(out, &css);
            out.push_str("</style>");
        }
        return;
    }
    out.push('<');
    out.push_str(name);
    if root {
        out.push_str(" xmlns=\"");
        out.push_str(SVG_NAMESPACE);
        out.push('"');
    }
    let has_plain_href = node
        .attributes()
        .any(|a| a.namespace().is_none() && a.name() == "href");
    for attribute in node.attributes() {
        let attribute_name = match (attribute.namespace(), attribute.name()) {
            (None, name) => name,
            (Some(XLINK_NAMESPACE), "href") if !has_plain_href => "href",
            (Some(XML_NAMESPACE), "space") => "xml:space",
            _ => continue,
        };
        if !ATTRIBUTES.contains(&attribute_name) {
            continue;
        }
        let value = attribute.value();
        let kept = match attribute_name {
            "style" => sanitise_declarations(value),
            "href" if HREF_ELEMENTS.contains(&name) && is_fragment(value) => {
                value.trim().to_owned()
            }
            "href" => continue,
            _ if safe_value(value) => value.to_owned(),
            _ => continue,
        };
        if kept.is_empty() {
            continue;
        }
        out.push(' ');
        out.push_str(attribute_name);
        out.push_str("=\"");
        escape_attribute(out, &kept);
        out.push('"');
    }
    let start = out.len();
    out.push('>');
    let text = TEXT_ELEMENTS.contains(&name);
    for child in node.children() {
        if child.is_element() {
            write_element(out, child, false);
        } else if text && let Some(content) = child.text() {
            escape_text(out, content);
        }
    }
    if out.len() == start + 1 {
        out.truncate(start);
        out.push_str("/>");
    } else {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// Text content with `&`, `<` and `>` escaped.
fn escape_text(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// A double-quoted attribute value with `&`, `<`, `>` and `"` escaped, and tabs and line breaks
/// written as the spaces a parser would read them as.
fn escape_attribute(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}
