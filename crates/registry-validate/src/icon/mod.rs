//! Icon checks: the registry CI's rules (well-formed, `<svg>` root, 16x16, monochrome, no
//! comments) read with a real XML parser, plus what makes an SVG unsafe to show (scripts, event
//! handlers, external references, `<foreignObject>`, DOCTYPEs and their entities, animations of
//! links and handlers, CSS escapes and image-loading functions) or too big to draw
//! ([`limits`]); and the sanitiser that re-writes an icon with only what draws ([`sanitise`]).
//!
//! Every icon the validator accepts, the sanitiser re-writes (each of its refusals is one of
//! the validator's errors).

mod css;
pub mod limits;
mod sanitise;

use std::collections::BTreeMap;
use std::ops::Range;

use registry_core::icon_bounds::doctype;
use roxmltree::{Document, Node, ParsingOptions};

pub use sanitise::{IconError, sanitise_icon};

use crate::diagnostic::{Diagnostic, Rule, Severity, Span};
use css::{loading_function, strip_comments, url_references};
use limits::{Limit, MAX_BYTES, MAX_NODES};

pub(crate) const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";
pub(crate) const XLINK_NAMESPACE: &str = "http://www.w3.org/1999/xlink";
/// The only values a `fill` or `stroke` may have (compared in lowercase).
const ALLOWED_PAINT: [&str; 3] = ["currentcolor", "none", "inherit"];
/// Where a paint was declared, for messages: in a `<style>` element.
const IN_STYLE_BLOCK: &str = "a <style> block";
/// SVG's animation elements: each can set another attribute of its target over time.
const ANIMATIONS: [&str; 5] = [
    "animate",
    "animateColor",
    "animateMotion",
    "animateTransform",
    "set",
];
/// Presentation attributes browsers read as CSS values that may hold a `url(`.
const URL_ATTRIBUTES: [&str; 10] = [
    "clip-path",
    "cursor",
    "fill",
    "filter",
    "marker",
    "marker-end",
    "marker-mid",
    "marker-start",
    "mask",
    "stroke",
];

/// What is expected of an icon file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IconRole {
    /// `icon.svg`: every rule, monochrome included.
    Main,
    /// `icon-light.svg`/`icon-dark.svg`: theme-specific, so colours are allowed.
    Themed,
}

/// Checks one icon file, adding a diagnostic per problem.
pub(crate) fn check_icon(file: &str, bytes: &[u8], role: IconRole, out: &mut Vec<Diagnostic>) {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid = String::from_utf8_lossy(&bytes[..err.valid_up_to()]);
            out.push(Diagnostic {
                severity: Severity::Error,
                rule: Rule::IconXml,
                file: file.to_owned(),
                span: Some(Span::new(&valid, valid.len()..valid.len())),
                message: "the icon is not UTF-8 text".to_owned(),
                hint: "save the SVG as UTF-8".to_owned(),
            });
            return;
        }
    };
    let mut sink = Sink { file, text, out };
    if text.len() > MAX_BYTES {
        sink.too_large(Limit::Bytes, text.len(), None);
        return;
    }
    comments(&mut sink);
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bom = text.len() - body.len();
    let shift = |range: Range<usize>| range.start + bom..range.end + bom;
    let without_doctype;
    let body = match doctype(body) {
        Some(doctype) => {
            if doctype.declares {
                sink.error(
                    Rule::IconDtd,
                    Some(shift(doctype.range.clone())),
                    "the icon's <!DOCTYPE> declares entities ([...]): they can hide markup (a \
                     <script>) from these checks, or expand into megabytes in a browser"
                        .to_owned(),
                    "remove the <!DOCTYPE ...> and write characters as they are or as &#...; \
                     references (an optimiser such as svgo does it)"
                        .to_owned(),
                );
            }
            without_doctype = blank(body, doctype.range);
            without_doctype.as_str()
        }
        None => body,
    };
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    let document = match Document::parse_with_options(body, options) {
        Ok(document) => document,
        Err(roxmltree::Error::NodesLimitReached) => {
            sink.too_large(Limit::Elements, MAX_NODES as usize, None);
            return;
        }
        Err(err) => {
            let pos = err.pos();
            let span = Span::at_line_column(body, pos.row as usize, pos.col as usize, 1);
            sink.error(
                Rule::IconXml,
                Some(span.start + bom..span.end + bom),
                format!("the icon is not well-formed XML: {err}"),
                "fix the markup there (an unclosed tag or an unescaped & or < is the usual cause)"
                    .to_owned(),
            );
            return;
        }
    };
    let root = document.root_element();
    if root.tag_name().name() != "svg" {
        sink.error(
            Rule::IconRoot,
            Some(shift(name_range(root))),
            format!(
                "the root element is <{}>, not <svg>",
                root.tag_name().name()
            ),
            "make <svg xmlns=\"http://www.w3.org/2000/svg\" ...> the outermost element".to_owned(),
        );
        return;
    }
    if let Some(over) = limits::measure(&document) {
        sink.too_large(over.limit, over.found, Some(shift(name_range(root))));
    }
    match root.tag_name().namespace() {
        Some(SVG_NAMESPACE) => {}
        other => sink.push(
            Severity::Warning,
            Rule::IconNamespace,
            Some(shift(name_range(root))),
            match other {
                None => "the <svg> element has no xmlns, so browsers show it as plain XML, \
                         not as an image"
                    .to_owned(),
                Some(ns) => format!(
                    "the <svg> element is in the namespace \"{ns}\", so browsers do not draw \
                     it as SVG"
                ),
            },
            "write xmlns=\"http://www.w3.org/2000/svg\" on the <svg> element".to_owned(),
        ),
    }
    size(&mut sink, root, &shift);
    let mut paints = Paints::default();
    for node in root.descendants().filter(Node::is_element) {
        element(&mut sink, node, &shift, &mut paints);
    }
    if role == IconRole::Main {
        paints.report(&mut sink, shift(name_range(root)));
    }
}

struct Sink<'a, 'o> {
    file: &'a str,
    text: &'a str,
    out: &'o mut Vec<Diagnostic>,
}

impl Sink<'_, '_> {
    fn too_large(&mut self, limit: Limit, found: usize, range: Option<Range<usize>>) {
        let hint = match limit {
            Limit::Bytes => {
                "optimise it (svgo) or simplify the drawing: a 16x16 icon needs a \
                             few kilobytes"
            }
            Limit::Depth => "flatten the nested groups (an optimiser such as svgo does it)",
            Limit::Elements => {
                "merge the shapes into fewer paths (an optimiser such as svgo \
                                does it)"
            }
            Limit::PathSegments => {
                "simplify the paths: a 16x16 drawing needs a few hundred \
                                    segments"
            }
        };
        let at_least = if limit == Limit::Bytes {
            ""
        } else {
            " or more"
        };
        self.error(
            Rule::IconTooLarge,
            range,
            format!(
                "the icon has {found} {limit}{at_least}, over the {} an icon may have, so it \
                 could hang or crash the page showing it",
                limit.max()
            ),
            hint.to_owned(),
        );
    }

    fn error(&mut self, rule: Rule, range: Option<Range<usize>>, message: String, hint: String) {
        self.push(Severity::Error, rule, range, message, hint);
    }

    fn push(
        &mut self,
        severity: Severity,
        rule: Rule,
        range: Option<Range<usize>>,
        message: String,
        hint: String,
    ) {
        self.out.push(Diagnostic {
            severity,
            rule,
            file: self.file.to_owned(),
            span: range.map(|range| Span::new(self.text, range)),
            message,
            hint,
        });
    }
}

/// `<!--` anywhere: one diagnostic at the first, with the count.
fn comments(sink: &mut Sink<'_, '_>) {
    let found: Vec<usize> = sink.text.match_indices("<!--").map(|(i, _)| i).collect();
    let Some(&first) = found.first() else { return };
    let end = sink.text[first..]
        .find("-->")
        .map_or(sink.text.len(), |i| first + i + 3);
    let message = match found.len() {
        1 => "the icon has a comment; the registry's CI rejects `<!--` in icons".to_owned(),
        n => format!("the icon has {n} comments; the registry's CI rejects `<!--` in icons"),
    };
    sink.error(
        Rule::IconComment,
        Some(first..end),
        message,
        "remove every <!-- ... --> from the SVG (an optimiser such as svgo does it)".to_owned(),
    );
}

/// The element's name right after `<`.
fn name_range(node: Node<'_, '_>) -> Range<usize> {
    let start = node.range().start + 1;
    start..start + node.tag_name().name().len()
}

/// 16x16 and square, from `width`/`height` (units stripped) or else `viewBox`.
fn size(sink: &mut Sink<'_, '_>, root: Node<'_, '_>, shift: &dyn Fn(Range<usize>) -> Range<usize>) {
    let length = |name: &str| {
        root.attribute_node(name)
            .and_then(|attr| leading_number(attr.value()).map(|n| (n, attr.range())))
    };
    let (width, height, range, from) = match (length("width"), length("height")) {
        (Some((w, range)), Some((h, _))) => (w, h, range, "width/height"),
        _ => match root
            .attribute_node("viewBox")
            .and_then(|attr| view_box(attr.value()).map(|(w, h)| (w, h, attr.range(), "viewBox")))
        {
            Some(found) => found,
            None => {
                sink.error(
                    Rule::IconSize,
                    Some(shift(name_range(root))),
                    "the icon has no size: no width/height and no viewBox".to_owned(),
                    "add width=\"16\" height=\"16\" viewBox=\"0 0 16 16\" to the <svg> element"
                        .to_owned(),
                );
                return;
            }
        },
    };
    if width != height || width != 16.0 {
        let square = if width == height {
            ""
        } else {
            ", and not square"
        };
        sink.error(
            Rule::IconSize,
            Some(shift(range)),
            format!(
                "the icon is {}x{} (from {from}){square}; the registry wants 16x16",
                number(width),
                number(height)
            ),
            "set width=\"16\" height=\"16\" on the <svg> element (keep the viewBox to scale the \
             drawing)"
                .to_owned(),
        );
    }
}

/// `16`, `16px`, `16.0em` → 16; `auto` → `None`.
fn leading_number(value: &str) -> Option<f64> {
    let value = value.trim();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    value[..end].parse().ok()
}

/// `min-x min-y width height`, separated by spaces and/or commas.
fn view_box(value: &str) -> Option<(f64, f64)> {
    let numbers: Vec<f64> = value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match numbers[..] {
        [_, _, width, height] => Some((width, height)),
        _ => None,
    }
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Colours seen, for the monochrome rule: each forbidden value once, at its first place.
#[derive(Default)]
struct Paints {
    /// (`fill`, `#fff`) → (first range, how many times, where: "attribute", ...).
    forbidden: BTreeMap<(String, String), (Range<usize>, usize, &'static str)>,
    /// Whether a `fill` or `stroke` (attribute, style declaration or `<style>` rule) is
    /// `currentColor`: what the CI counts. `color="currentColor"` alone does not count, as
    /// nothing then paints in it.
    current_color: bool,
}

impl Paints {
    /// One `fill`/`stroke` value. As in the CI, a `<style>` rule's value is its first word (so
    /// `currentColor !important` is `currentColor`), an attribute's the whole value.
    fn see(&mut self, property: &str, value: &str, range: Range<usize>, place: &'static str) {
        let value = value.trim();
        let compared = if place == IN_STYLE_BLOCK {
            value.split_whitespace().next().unwrap_or("")
        } else {
            value
        };
        let normalised = compared.to_ascii_lowercase();
        if normalised == "currentcolor" {
            self.current_color = true;
        }
        if ALLOWED_PAINT.contains(&normalised.as_str()) {
            return;
        }
        self.forbidden
            .entry((property.to_owned(), value.to_owned()))
            .and_modify(|(_, count, _)| *count += 1)
            .or_insert((range, 1, place));
    }

    fn report(self, sink: &mut Sink<'_, '_>, root: Range<usize>) {
        let mut found: Vec<_> = self.forbidden.into_iter().collect();
        found.sort_by_key(|(_, (range, _, _))| range.start);
        for ((property, value), (range, count, place)) in found {
            let more = match count {
                1 => String::new(),
                n => format!(" ({n} times)"),
            };
            sink.error(
                Rule::IconColor,
                Some(range),
                format!(
                    "the icon hardcodes {property} \"{value}\" in {place}{more}; icons must be \
                     monochrome so they follow the theme"
                ),
                format!("use {property}=\"currentColor\" (or none) instead of \"{value}\""),
            );
        }
        if !self.current_color {
            sink.error(
                Rule::IconNoCurrentColor,
                Some(root),
                "no fill or stroke of the icon is currentColor, so it stays black on a dark theme"
                    .to_owned(),
                "set fill=\"currentColor\" (or stroke=\"currentColor\") on the <svg> element or \
                 its shapes"
                    .to_owned(),
            );
        }
    }
}

/// Every check on one element: paints, unsafe content, external references.
fn element(
    sink: &mut Sink<'_, '_>,
    node: Node<'_, '_>,
    shift: &dyn Fn(Range<usize>) -> Range<usize>,
    paints: &mut Paints,
) {
    let name = node.tag_name().name();
    if name.eq_ignore_ascii_case("script") {
        sink.error(
            Rule::IconScript,
            Some(shift(name_range(node))),
            "the icon has a <script>; an icon must be a drawing only".to_owned(),
            "remove the <script> element".to_owned(),
        );
    }
    if name.eq_ignore_ascii_case("foreignObject") {
        sink.error(
            Rule::IconForeignObject,
            Some(shift(name_range(node))),
            "the icon has a <foreignObject>, which embeds HTML in the drawing".to_owned(),
            "draw it with SVG shapes (path, rect, circle) instead".to_owned(),
        );
    }
    if ANIMATIONS.contains(&name) {
        animation(sink, node, shift);
    }
    for attr in node.attributes() {
        let attr_name = attr.name();
        let range = shift(attr.range());
        let value = attr.value();
        let plain = attr.namespace().is_none();
        if plain && matches!(attr_name, "fill" | "stroke") {
            paints.see(attr_name, value, shift(attr.range_value()), "an attribute");
        }
        if plain && attr_name == "style" {
            for (property, declared) in paint_declarations(&strip_comments(value)) {
                paints.see(
                    &property,
                    declared,
                    shift(attr.range_value()),
                    "a style attribute",
                );
            }
        }
        if plain && (attr_name == "style" || URL_ATTRIBUTES.contains(&attr_name)) {
            css_hazards(sink, &format!("`{attr_name}`"), value, range.clone());
        }
        if attr_name.len() > 2
            && attr_name
                .get(..2)
                .is_some_and(|p| p.eq_ignore_ascii_case("on"))
        {
            sink.error(
                Rule::IconEventHandler,
                Some(range.clone()),
                format!("the icon has an event handler `{attr_name}`, which runs script"),
                format!("remove the {attr_name} attribute"),
            );
        }
        let is_href =
            attr_name == "href" && matches!(attr.namespace(), None | Some(XLINK_NAMESPACE));
        if is_href && !value.trim().starts_with('#') {
            sink.error(
                Rule::IconExternalReference,
                Some(range.clone()),
                format!(
                    "the icon links to \"{}\"; an icon may only reference its own #fragments",
                    shorten(value)
                ),
                "inline what it points at, and reference it by id (href=\"#id\")".to_owned(),
            );
        }
        for target in url_references(&strip_comments(value)) {
            if !target.starts_with('#') {
                sink.error(
                    Rule::IconExternalReference,
                    Some(range.clone()),
                    format!(
                        "`{attr_name}` references url({}); an icon may only reference its own \
                         #fragments",
                        shorten(&target)
                    ),
                    "define it inside the SVG and use url(#id)".to_owned(),
                );
            }
        }
    }
    if name == "style" {
        let raw: String = node
            .children()
            .filter(Node::is_text)
            .filter_map(|child| child.text())
            .collect();
        let range = shift(node.range());
        css_hazards(sink, "the <style> block", &raw, range.clone());
        let css = strip_comments(&raw);
        for block in css.split('{').skip(1) {
            let body = block.split('}').next().unwrap_or("");
            for (property, value) in paint_declarations(body) {
                paints.see(&property, value, range.clone(), IN_STYLE_BLOCK);
            }
        }
        for target in url_references(&css) {
            if !target.starts_with('#') {
                sink.error(
                    Rule::IconExternalReference,
                    Some(range.clone()),
                    format!(
                        "the <style> block references url({}); an icon may only reference its \
                         own #fragments",
                        shorten(&target)
                    ),
                    "define it inside the SVG and use url(#id)".to_owned(),
                );
            }
        }
        if css.to_ascii_lowercase().contains("@import") {
            sink.error(
                Rule::IconExternalReference,
                Some(range),
                "the <style> block has an @import, which loads another file".to_owned(),
                "copy the rules you need into the <style> block".to_owned(),
            );
        }
    }
}

/// An animation element that sets a link (`href`, `xlink:href`) or an event handler (`on…`):
/// `<a><set attributeName="href" to="javascript:…"/>` turns a harmless link into script.
fn animation(
    sink: &mut Sink<'_, '_>,
    node: Node<'_, '_>,
    shift: &dyn Fn(Range<usize>) -> Range<usize>,
) {
    let Some(attr) = node
        .attributes()
        .find(|a| a.namespace().is_none() && a.name() == "attributeName")
    else {
        return;
    };
    let target = attr.value().trim();
    let local = target.rsplit(':').next().unwrap_or(target);
    let what = if local.eq_ignore_ascii_case("href") {
        "a link, which can become javascript:"
    } else if local.len() > 2 && local[..2].eq_ignore_ascii_case("on") {
        "an event handler, which runs script"
    } else {
        return;
    };
    let name = node.tag_name().name();
    sink.error(
        Rule::IconAnimation,
        Some(shift(attr.range())),
        format!("the icon's <{name}> sets `{target}`, {what}"),
        format!("remove the <{name}> element: an icon is drawn still"),
    );
}

/// CSS that could load something or hide what it does, in `where` (a `style` attribute, a
/// presentation attribute or a `<style>` block): escapes, which can spell `url(` or `@import`
/// past any check (`@\69mport`, `u\72l(`), and functions that load images without `url(`.
fn css_hazards(sink: &mut Sink<'_, '_>, place: &str, css: &str, range: Range<usize>) {
    let css = strip_comments(css);
    if css.contains('\\') {
        sink.error(
            Rule::IconCssEscape,
            Some(range.clone()),
            format!(
                "{place} has a CSS escape (`\\`), which can spell url( or @import past any check"
            ),
            "write the characters themselves: an icon's CSS needs no escapes".to_owned(),
        );
    }
    if let Some(function) = loading_function(&css) {
        sink.error(
            Rule::IconExternalReference,
            Some(range),
            format!("{place} uses {function}, which loads images from elsewhere"),
            "draw it with shapes inside the SVG instead".to_owned(),
        );
    }
}

/// The `fill` and `stroke` declarations of a CSS declaration list: `fill: red; opacity: 1`.
fn paint_declarations(css: &str) -> impl Iterator<Item = (String, &str)> {
    css::declarations(css).filter(|(property, _)| property == "fill" || property == "stroke")
}

/// `text` with `range` replaced by spaces (line breaks kept), so that every other byte keeps its
/// place.
pub(crate) fn blank(text: &str, range: Range<usize>) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..range.start]);
    for c in text[range.clone()].chars() {
        if c == '\n' || c == '\r' {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out.push_str(&text[range.end..]);
    out
}

fn shorten(value: &str) -> String {
    const MAX: usize = 60;
    let value = value.trim();
    match value.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &value[..at]),
        None => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_view_boxes() {
        assert_eq!(leading_number("16"), Some(16.0));
        assert_eq!(leading_number(" 16px"), Some(16.0));
        assert_eq!(leading_number("16.5em"), Some(16.5));
        assert_eq!(leading_number("auto"), None);
        assert_eq!(view_box("0 0 16 16"), Some((16.0, 16.0)));
        assert_eq!(view_box("0,0,24,24"), Some((24.0, 24.0)));
        assert_eq!(view_box("-1 -1 466.73 532.09"), Some((466.73, 532.09)));
        assert_eq!(view_box("0 0 16"), None);
    }

    #[test]
    fn blanking_keeps_every_other_byte_in_place() {
        let blanked = blank("a<!DOCTYPE\né>b", 1..14);
        assert_eq!(blanked, "a         \n   b");
        assert_eq!(blanked.len(), "a<!DOCTYPE\né>b".len());
    }
}
