//! An icon's text measured before the site draws it: [`measure_icon`] says whether it is within
//! the bounds of [`icon_bounds`](crate::icon_bounds), or what makes it [`Unfit`].
//!
//! A browser draws an SVG on the page's main thread, and one complex enough (a 5 MB icon of a
//! single 880,000-segment path) stops the page painting for over a minute; entities can hide
//! markup, and one entity referenced 20,000 times crashes a tab. The site therefore draws only
//! an icon it has read and measured: bytes, elements, `<use>` copies and path segments, counted
//! in one pass over the text without parsing it as XML, a `<!DOCTYPE>` that declares entities,
//! and the elements the validator rejects that a browser would act on (script, animation,
//! `<foreignObject>`).

use crate::icon_bounds::{
    MAX_BYTES, MAX_ELEMENTS, MAX_PATH_SEGMENTS, MAX_USES, doctype, numbers, path_segments,
};

/// What makes an icon's text unfit to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// It has more bytes than [`MAX_BYTES`] (at least `found`).
    TooLarge {
        /// Bytes it has, at least.
        found: usize,
    },
    /// Its `<!DOCTYPE>` declares entities.
    Entities,
    /// It has an element no icon may have: one that runs script, animates (an animation can
    /// set a link's `href`), embeds a document or handles events.
    Forbidden(String),
    /// It is over one of the other bounds.
    TooComplex {
        /// What was counted: `elements`, `path segments`, `<use> elements`.
        what: &'static str,
        /// How many it has, at least.
        found: usize,
        /// The bound.
        limit: usize,
    },
}

/// Elements that make an icon refused (compared without case and namespace prefix): the
/// validator's errors that a browser would act on outside an image.
const FORBIDDEN_ELEMENTS: [&str; 9] = [
    "script",
    "foreignObject",
    "iframe",
    "set",
    "animate",
    "animateMotion",
    "animateTransform",
    "handler",
    "listener",
];

/// Whether an icon's text is within the bounds: bytes, elements, `<use>` elements and path
/// segments, counted in one pass over the text without parsing it as XML (what looks like a
/// tag inside a comment counts too: the count errs on the side of refusing).
pub fn measure_icon(text: &str) -> Result<(), Unfit> {
    if text.len() > MAX_BYTES {
        return Err(Unfit::TooLarge { found: text.len() });
    }
    if doctype(text).is_some_and(|d| d.declares) {
        return Err(Unfit::Entities);
    }
    let bytes = text.as_bytes();
    let (mut elements, mut uses, mut segments) = (0usize, 0usize, 0usize);
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'<' || !bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic) {
            at += 1;
            continue;
        }
        let name_start = at + 1;
        at = name_start;
        while at < bytes.len() && is_name_byte(bytes[at]) {
            at += 1;
        }
        let name = &text[name_start..at];
        elements += 1;
        let local = name.rsplit(':').next().unwrap_or(name);
        if let Some(forbidden) = FORBIDDEN_ELEMENTS
            .iter()
            .find(|forbidden| local.eq_ignore_ascii_case(forbidden))
        {
            return Err(Unfit::Forbidden((*forbidden).to_owned()));
        }
        if name == "use" || name.ends_with(":use") {
            uses += 1;
        }
        // The attributes, up to the end of the tag.
        while at < bytes.len() && bytes[at] != b'>' {
            if !is_name_byte(bytes[at]) {
                at += 1;
                continue;
            }
            let attribute_start = at;
            while at < bytes.len() && is_name_byte(bytes[at]) {
                at += 1;
            }
            let attribute = &text[attribute_start..at];
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if bytes.get(at) != Some(&b'=') {
                continue;
            }
            at += 1;
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let Some(&quote) = bytes.get(at).filter(|b| **b == b'"' || **b == b'\'') else {
                continue;
            };
            let value_start = at + 1;
            let value_end = text[value_start..]
                .find(quote as char)
                .map_or(bytes.len(), |end| value_start + end);
            let value = &text[value_start..value_end];
            segments += match attribute {
                "d" => path_segments(value),
                "points" => numbers(value) / 2,
                _ => 0,
            };
            at = value_end + 1;
        }
        let over = [
            ("elements", elements, MAX_ELEMENTS),
            ("<use> elements", uses, MAX_USES),
            ("path segments", segments, MAX_PATH_SEGMENTS),
        ]
        .into_iter()
        .find(|(_, found, limit)| found > limit);
        if let Some((what, found, limit)) = over {
            return Err(Unfit::TooComplex { what, found, limit });
        }
    }
    Ok(())
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b':' | b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icons_over_a_bound_are_refused_with_what_was_counted() {
        let svg = |body: &str| {
            format!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">{body}</svg>")
        };
        let real = include_str!("../../../public/raxol.svg");
        let long_path = svg(&format!("<path d=\"M0 0{}\"/>", " L1 1".repeat(10_001)));
        let many_points = svg(&format!("<polygon points='{}'/>", "1,1 ".repeat(10_001)));
        let uses = svg(&"<use href=\"#a\"/>".repeat(17));
        let elements = svg(&"<g></g>".repeat(2_001));
        let huge = format!("<svg>{}</svg>", " ".repeat(MAX_BYTES));
        let with_use = svg("<path d='M0 0h16v16H0z'/><use href='#x'/>");
        let quoted_gt = svg("<path title='a>b' d='M0 0L1 1'/>");
        let entities = format!(
            "<!DOCTYPE svg [<!ENTITY s \"&#60;script&#62;alert(1)&#60;/script&#62;\">]>{}",
            svg("&s;")
        );
        let set_href = svg(
            "<a><set attributeName=\"href\" to=\"javascript:alert(1)\"/><path d='M0 0h16v16H0z'/></a>",
        );
        let script = svg("<svg:script>alert(1)</svg:script>");
        let foreign = svg("<foreignobject><div/></foreignobject>");
        let quoted_bracket = format!(
            "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x[y\">{}",
            svg("<path d='M0 0L1 1'/>")
        );
        let table: Vec<(&str, Result<(), Unfit>)> = vec![
            (real, Ok(())),
            (&with_use, Ok(())),
            (
                &long_path,
                Err(Unfit::TooComplex {
                    what: "path segments",
                    found: 10_002,
                    limit: 10_000,
                }),
            ),
            (
                &many_points,
                Err(Unfit::TooComplex {
                    what: "path segments",
                    found: 10_001,
                    limit: 10_000,
                }),
            ),
            (
                &uses,
                Err(Unfit::TooComplex {
                    what: "<use> elements",
                    found: 17,
                    limit: 16,
                }),
            ),
            (
                &elements,
                Err(Unfit::TooComplex {
                    what: "elements",
                    found: 2_001,
                    limit: 2_000,
                }),
            ),
            (
                &huge,
                Err(Unfit::TooLarge {
                    found: MAX_BYTES + 11,
                }),
            ),
            // A quoted `>` inside an attribute does not end the tag.
            (&quoted_gt, Ok(())),
            (&entities, Err(Unfit::Entities)),
            (&set_href, Err(Unfit::Forbidden("set".to_owned()))),
            (&script, Err(Unfit::Forbidden("script".to_owned()))),
            (&foreign, Err(Unfit::Forbidden("foreignObject".to_owned()))),
            (&quoted_bracket, Ok(())),
        ];
        for (text, expected) in table {
            assert_eq!(
                measure_icon(text),
                expected,
                "{}",
                &text[..text.len().min(80)]
            );
        }
    }

    #[test]
    fn every_bundled_icon_is_drawn() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../public");
        let mut seen = 0;
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "svg") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(measure_icon(&text), Ok(()), "{}", path.display());
                seen += 1;
            }
        }
        assert!(seen > 50, "{seen} icons");
    }
}
