//! The CSS of an icon — `style` attributes, `<style>` blocks and the presentation attributes
//! browsers parse as CSS — read for what could load something or hide what it does, and
//! written back with only what draws.
//!
//! Reading is plain substring work, which is only sound because escapes are refused first: with
//! no `\` in the text, `@\69mport` cannot spell `@import` and `u\72l(` cannot spell `url(`.
//! Comments are replaced by a space, as CSS reads them (`u/**/rl(` is not `url(`).
//!
//! Writing back keeps, in declarations and in stylesheets alike, only an allow-list of properties
//! with safe values, in plain rules; at-rules and anything with an escape are dropped.

/// Functions that load an image or a document: `url(` is allowed only around a `#fragment`,
/// the others never (they take strings, which need no `url(`).
pub(crate) const LOADING_FUNCTIONS: [&str; 6] = [
    "image-set(",
    "-webkit-image-set(",
    "image(",
    "cross-fade(",
    "element(",
    "src(",
];

/// Properties the sanitiser keeps, in `style` attributes and `<style>` blocks alike: the SVG
/// presentation properties that draw shapes and text, nothing that loads, animates or lays out
/// a page.
const PROPERTIES: [&str; 44] = [
    "clip-path",
    "clip-rule",
    "color",
    "color-interpolation",
    "display",
    "dominant-baseline",
    "fill",
    "fill-opacity",
    "fill-rule",
    "font-family",
    "font-size",
    "font-stretch",
    "font-style",
    "font-variant",
    "font-weight",
    "isolation",
    "letter-spacing",
    "mask",
    "mask-type",
    "mix-blend-mode",
    "opacity",
    "overflow",
    "paint-order",
    "shape-rendering",
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
    "text-anchor",
    "text-decoration",
    "text-rendering",
    "transform",
    "transform-box",
    "transform-origin",
    "vector-effect",
    "visibility",
    "word-spacing",
    "writing-mode",
];

/// Functions a kept value may call: colours and transforms (and `url(#…)`, checked apart).
const VALUE_FUNCTIONS: [&str; 15] = [
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "matrix",
    "rotate",
    "scale",
    "scalex",
    "scaley",
    "skew",
    "skewx",
    "skewy",
    "translate",
    "translatex",
    "translatey",
];

/// `css` with every `/* … */` replaced by one space (an unterminated comment runs to the end).
pub(crate) fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        out.push(' ');
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// The `property: value` declarations of a declaration list (`fill: red; opacity: 1`), the
/// property trimmed and lowercased, the value trimmed.
pub(crate) fn declarations(css: &str) -> impl Iterator<Item = (String, &str)> {
    css.split(';')
        .filter_map(|declaration| declaration.split_once(':'))
        .map(|(property, value)| (property.trim().to_ascii_lowercase(), value.trim()))
}

/// The targets of every `url(...)` in a value, quotes and spaces removed.
pub(crate) fn url_references(value: &str) -> Vec<String> {
    let lower = value.to_ascii_lowercase();
    lower
        .match_indices("url(")
        .map(|(at, _)| {
            let inner = &value[at + 4..];
            let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
            inner.trim().trim_matches(['"', '\'']).trim().to_owned()
        })
        .collect()
}

/// The first function of [`LOADING_FUNCTIONS`] in `css`, if any (case-insensitive).
pub(crate) fn loading_function(css: &str) -> Option<&'static str> {
    let lower = css.to_ascii_lowercase();
    LOADING_FUNCTIONS.into_iter().find(|f| {
        lower.match_indices(f).any(|(at, _)| {
            // `image(` inside `-webkit-image-set(` or `cross-fade(` is that function, found too.
            !lower[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
        })
    })
}

/// A declaration list with only the kept properties whose values are safe, written
/// canonically: `fill:currentColor;opacity:.5`. Empty when nothing is kept.
pub(crate) fn sanitise_declarations(css: &str) -> String {
    let css = strip_comments(css);
    if css.contains('\\') {
        return String::new();
    }
    let kept: Vec<String> = declarations(&css)
        .filter(|(property, value)| PROPERTIES.contains(&property.as_str()) && safe_value(value))
        .map(|(property, value)| format!("{property}:{}", collapse_spaces(value)))
        .collect();
    kept.join(";")
}

/// A stylesheet with only its plain rules (selectors of names, classes, ids, `*` and
/// combinators), each with its kept declarations ([`sanitise_declarations`]); at-rules
/// (`@import`, `@media`, `@font-face`…) and anything with an escape are dropped. Written
/// canonically: `.a,.b{fill:none}`.
pub(crate) fn sanitise_stylesheet(css: &str) -> String {
    let css = strip_comments(css);
    if css.contains('\\') {
        return String::new();
    }
    let mut out = String::new();
    let mut rest = css.as_str();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if rest.starts_with('@') {
            rest = skip_at_rule(rest);
            continue;
        }
        let Some(open) = rest.find(['{', ';', '}']) else {
            break;
        };
        if !rest[open..].starts_with('{') {
            rest = &rest[open + 1..];
            continue;
        }
        let selector = &rest[..open];
        let after = &rest[open + 1..];
        let close = after.find(['{', '}']).unwrap_or(after.len());
        if after[close..].starts_with('{') {
            // A nested block: not a plain rule; skip it whole.
            rest = skip_block(&rest[open..]);
            continue;
        }
        let body = &after[..close];
        rest = after.get(close + 1..).unwrap_or("");
        let Some(selector) = plain_selector(selector) else {
            continue;
        };
        let body = sanitise_declarations(body);
        if !body.is_empty() {
            out.push_str(&selector);
            out.push('{');
            out.push_str(&body);
            out.push('}');
        }
    }
    out
}

/// `rest` after the at-rule it starts with: up to its `;`, or its balanced `{…}` block.
fn skip_at_rule(rest: &str) -> &str {
    match rest.find([';', '{']) {
        Some(at) if rest[at..].starts_with(';') => &rest[at + 1..],
        Some(at) => skip_block(&rest[at..]),
        None => "",
    }
}

/// `text` (starting with `{`) after its balanced block.
fn skip_block(text: &str) -> &str {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[at + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// A selector list of element names, classes, ids, `*` and the `>`, `+`, `~` and descendant
/// combinators, its spaces collapsed; `None` for anything else (pseudo-classes, attribute
/// selectors).
fn plain_selector(selector: &str) -> Option<String> {
    let selector = selector.trim();
    let plain = !selector.is_empty()
        && selector.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '-' | '_' | '.' | '#' | ',' | '*' | '>' | '+' | '~')
                || c.is_ascii_whitespace()
        });
    plain.then(|| {
        selector
            .split(',')
            .map(collapse_spaces)
            .collect::<Vec<_>>()
            .join(",")
    })
}

/// Whether a value may be kept: letters, digits, spaces (tabs and line breaks too) and
/// `# % . , + - _ ( ) ! ' " /`, only the [`VALUE_FUNCTIONS`] called, and `url(` only around a
/// `#fragment`.
pub(crate) fn safe_value(value: &str) -> bool {
    if value.is_empty()
        || !value.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, ' ' | '\t' | '\n' | '\r')
                || "#%.,+-_()!'\"/".contains(c)
        })
    {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(open) = rest.find('(') {
        let name = rest[..open]
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .next()
            .unwrap_or_default();
        let inner = &rest[open + 1..];
        let close = inner.find(')');
        let ok = match name {
            "url" => close.is_some_and(|close| is_fragment(&inner[..close])),
            name => VALUE_FUNCTIONS.contains(&name),
        };
        if !ok {
            return false;
        }
        rest = inner;
    }
    true
}

/// `#id` (quoted or not) of plain id characters.
pub(crate) fn is_fragment(reference: &str) -> bool {
    let reference = reference.trim().trim_matches(['"', '\'']);
    reference.strip_prefix('#').is_some_and(|id| {
        !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    })
}

/// Runs of whitespace as one space, trimmed.
fn collapse_spaces(text: &str) -> String {
    text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_read_as_spaces() {
        assert_eq!(strip_comments("a/* x */b/* y"), "a b ");
        assert_eq!(strip_comments("u/**/rl(x)"), "u rl(x)");
        assert_eq!(
            url_references(&strip_comments("u/**/rl(x)")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn declarations_and_urls() {
        let found: Vec<(String, &str)> =
            declarations("fill: #fff; Stroke:none;opacity:1").collect();
        assert_eq!(
            found,
            [
                ("fill".to_owned(), "#fff"),
                ("stroke".to_owned(), "none"),
                ("opacity".to_owned(), "1")
            ]
        );
        assert_eq!(
            url_references("url(#a) URL( 'http://x' )"),
            ["#a", "http://x"]
        );
    }

    #[test]
    fn loading_functions_are_found_in_any_case() {
        let table = [
            ("fill: red", None),
            ("background: image-set(\"x.png\" 1x)", Some("image-set(")),
            (
                "background: -WEBKIT-image-set('x' 1x)",
                Some("-webkit-image-set("),
            ),
            ("mask: cross-fade(a, b)", Some("cross-fade(")),
            ("fill: element(#x)", Some("element(")),
            ("mask-image: image('x.png')", Some("image(")),
            ("src: src('x')", Some("src(")),
            ("fill: myimage(x)", None),
        ];
        for (css, expected) in table {
            assert_eq!(loading_function(css), expected, "{css}");
        }
    }

    #[test]
    fn declarations_keep_only_what_draws() {
        let table = [
            ("fill: currentColor", "fill:currentColor"),
            (
                "fill:none;stroke:currentColor;stroke-width:1.5",
                "fill:none;stroke:currentColor;stroke-width:1.5",
            ),
            ("FILL : url(#g)", "fill:url(#g)"),
            ("fill: url(http://evil.example/x)", ""),
            ("fill: url(data:image/png;base64,AA)", ""),
            ("background: url(#a)", ""),
            ("fill: u\\72l(http://x)", ""),
            ("fill: red; behavior: url(x.htc)", "fill:red"),
            ("fill: expression(alert(1))", ""),
            ("fill: image-set('x' 1x)", ""),
            ("mask-type: luminance", "mask-type:luminance"),
            (
                "stop-color:#6B46C1;stop-opacity:1",
                "stop-color:#6B46C1;stop-opacity:1",
            ),
            (
                "transform: rotate(45deg) translate(1px, 2px)",
                "transform:rotate(45deg) translate(1px, 2px)",
            ),
            (
                "font-family: 'Inter', sans-serif",
                "font-family:'Inter', sans-serif",
            ),
            ("fill: red /* x */ ; opacity: .5", "fill:red;opacity:.5"),
            ("fill: </style><script>", ""),
            ("fill", ""),
        ];
        for (css, expected) in table {
            assert_eq!(sanitise_declarations(css), expected, "{css}");
            assert_eq!(
                sanitise_declarations(expected),
                expected,
                "idempotent: {css}"
            );
        }
    }

    #[test]
    fn stylesheets_keep_only_plain_rules() {
        let table = [
            (
                ".st0 {\n  fill: currentColor;\n}",
                ".st0{fill:currentColor}",
            ),
            (
                ".a, .b  path {fill:none} #x>g{stroke:currentColor}",
                ".a,.b path{fill:none}#x>g{stroke:currentColor}",
            ),
            (
                "@import url(https://evil.example/x.css); .a{fill:none}",
                ".a{fill:none}",
            ),
            (
                "@media print { .a { fill: red } } .b{fill:none}",
                ".b{fill:none}",
            ),
            (
                "@font-face { src: url(x.woff) } .c{fill:none}",
                ".c{fill:none}",
            ),
            (
                "a:hover{fill:red} [href]{fill:red} .d{fill:none}",
                ".d{fill:none}",
            ),
            ("@\\69mport 'x'; .e{fill:none}", ""),
            (".f{background:url(https://x)}", ""),
            (".g{fill:none", ".g{fill:none}"),
            ("}}} .h{fill:none}", ".h{fill:none}"),
            (".i{a{fill:red}} .j{fill:none}", ".j{fill:none}"),
            ("", ""),
        ];
        for (css, expected) in table {
            assert_eq!(sanitise_stylesheet(css), expected, "{css}");
            assert_eq!(sanitise_stylesheet(expected), expected, "idempotent: {css}");
        }
    }

    #[test]
    fn values_call_only_colours_and_transforms() {
        let table = [
            ("currentColor", true),
            ("#fff", true),
            ("rgb(1, 2, 3)", true),
            ("url(#a)", true),
            ("url('#a')", true),
            ("url(#a) none", true),
            ("url(a)", false),
            ("url(#)", false),
            ("url(#a b)", false),
            ("var(--x)", false),
            ("calc(1px + 2px)", false),
            ("attr(x)", false),
            ("a;b", false),
            ("a:b", false),
            ("a\\b", false),
            ("a<b", false),
            ("", false),
        ];
        for (value, expected) in table {
            assert_eq!(safe_value(value), expected, "{value}");
        }
    }
}
