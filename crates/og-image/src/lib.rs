//! The link-preview (OpenGraph) image of an agent page: a 1200×630 PNG with the agent's icon,
//! its name, its version and the registry's name, rendered at build time with `resvg`.
//!
//! ```no_run
//! let card = og_image::Card { name: "Gemini CLI", id: "gemini", version: "0.56.0",
//!     icon_svg: Some("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>…</svg>"),
//!     site: "agentclientprotocol.com" };
//! let image = og_image::render(&card)?;
//! std::fs::write("og/gemini.png", &image.png)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The picture is drawn from a template of our own, in which the name, id and version are only
//! ever XML-escaped text. The icon is registry data: it is parsed on its own, never pasted into
//! the template, and rendered into its tile, drawn in white (its `currentColor`). `resvg` runs no
//! script; here it also reads no file and no system font, and loads no image: every `href` of an
//! `<image>` resolves to nothing, and the only fonts are the two Inter faces bundled in `fonts/`
//! (SIL Open Font License, `fonts/OFL.txt`), so the image is the same on every machine. An icon
//! that is missing, too big ([`MAX_ICON_BYTES`]), declares a DTD (entities can expand without
//! bound), uses `<use>` more than [`MAX_USES`] times (each can copy the others: an exponential
//! tree), does not parse or draws nothing is replaced by the monogram, as the site does, and
//! [`Rendered::icon`] says why.
//!
//! A name too wide for the card is set smaller, down to a floor, then cut with `…`; a name with
//! characters the bundled fonts do not have is replaced by the id (a plain slug), so no box or
//! blank is ever drawn.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use registry_core::icon_bounds;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

/// The image's width, in pixels.
pub const WIDTH: u32 = 1200;
/// The image's height, in pixels.
pub const HEIGHT: u32 = 630;
/// The largest icon rendered, in bytes (registry icons are a few hundred): the registry's
/// `icon_bounds::MAX_BYTES`.
pub const MAX_ICON_BYTES: usize = icon_bounds::MAX_BYTES;
/// The most `<use>` elements an icon may have: `icon_bounds::MAX_USES`, as on the site.
pub const MAX_USES: usize = icon_bounds::MAX_USES;

/// Inter Bold and Regular, from the `@expo-google-fonts/inter` package (OFL-1.1).
const FONTS: [&[u8]; 2] = [
    include_bytes!("../fonts/Inter_700Bold.ttf"),
    include_bytes!("../fonts/Inter_400Regular.ttf"),
];

/// The icon's tile: its left, top and side, in pixels.
const TILE: (f32, f32, f32) = (96.0, 175.0, 280.0);
/// The icon's size inside its tile.
const ICON: f32 = 176.0;
/// Where the name starts, and how wide it may be.
const TEXT_X: f32 = 440.0;
const TEXT_WIDTH: f32 = 664.0;
/// The name's font sizes, tried largest first.
const NAME_SIZES: [u32; 5] = [88, 76, 66, 58, 50];

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card<'a> {
    /// The agent's name.
    pub name: &'a str,
    /// Its id, shown under the name, and its name's stand-in when the fonts cannot draw it.
    pub id: &'a str,
    /// Its version, as the registry lists it.
    pub version: &'a str,
    /// The text of its icon, when it has one.
    pub icon_svg: Option<&'a str>,
    /// Where the catalogue is published, as people read it (`agentclientprotocol.com`);
    /// nothing is written when empty.
    pub site: &'a str,
}

/// A rendered image, and how its icon was drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The PNG file.
    pub png: Vec<u8>,
    /// Whether the icon or the monogram was drawn.
    pub icon: IconUse,
    /// The name as drawn (cut, or the id in its place), for the page's `og:image:alt`.
    pub name: String,
}

/// How the icon's tile was filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IconUse {
    /// The agent's icon.
    Icon,
    /// The monogram, because of this.
    Monogram(NoIcon),
}

/// Why the monogram stands in for the icon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoIcon {
    /// The entry has no icon.
    Missing,
    /// Bigger than [`MAX_ICON_BYTES`].
    TooLarge(usize),
    /// It declares a DTD.
    Dtd,
    /// More `<use>` elements than [`MAX_USES`].
    TooManyUses(usize),
    /// Not an SVG `resvg` can read, with its message.
    Unreadable(String),
    /// It draws nothing.
    Empty,
}

/// An image that could not be made: only a broken template of ours, never registry data.
#[derive(Debug, thiserror::Error)]
pub enum OgError {
    /// The card's own SVG did not parse.
    #[error("the link-preview template did not parse: {0}")]
    Template(#[from] usvg::Error),
    /// The PNG could not be encoded.
    #[error("the link-preview image could not be encoded as PNG: {0}")]
    Png(String),
}

/// Renders the card.
pub fn render(card: &Card<'_>) -> Result<Rendered, OgError> {
    let fonts = Arc::new(font_database());
    let icon = match card.icon_svg {
        None => Err(NoIcon::Missing),
        Some(text) => read_icon(text, &fonts),
    };
    let (name, name_size) = fit_name(card, &fonts)?;
    let monogram = match &icon {
        Ok(_) => None,
        Err(_) => Some(registry_core_monogram(card.name)),
    };
    let template = template(&name, name_size, card, monogram.as_deref());
    let (tree, _) = parse(&template, &fonts, None)?;
    let mut pixmap = Pixmap::new(WIDTH, HEIGHT).expect("a non-empty size");
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    let used = match icon {
        Ok(icon) => {
            let size = icon.size();
            let scale = ICON / size.width().max(size.height());
            let (x, y, side) = TILE;
            let dx = x + (side - size.width() * scale) / 2.0;
            let dy = y + (side - size.height() * scale) / 2.0;
            resvg::render(
                &icon,
                Transform::from_row(scale, 0.0, 0.0, scale, dx, dy),
                &mut pixmap.as_mut(),
            );
            IconUse::Icon
        }
        Err(reason) => IconUse::Monogram(reason),
    };
    let png = pixmap
        .encode_png()
        .map_err(|err| OgError::Png(err.to_string()))?;
    Ok(Rendered {
        png,
        icon: used,
        name,
    })
}

/// Renders an entry's card, with the text of its icon when the build has it, for the site at
/// `site` (see [`Card::site`]).
pub fn render_entry(
    entry: &registry_core::Entry,
    icon_svg: Option<&str>,
    site: &str,
) -> Result<Rendered, OgError> {
    render(&Card {
        name: &entry.name,
        id: &entry.id,
        version: &entry.version,
        icon_svg,
        site,
    })
}

/// The first letter or digit of the name, upper-cased, or `?`: the site's monogram.
fn registry_core_monogram(name: &str) -> String {
    name.chars()
        .find(|c| c.is_alphanumeric())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_else(|| "?".to_owned())
}

/// The bundled fonts, and nothing else.
fn font_database() -> fontdb::Database {
    let mut fonts = fontdb::Database::new();
    for font in FONTS {
        fonts.load_font_data(font.to_vec());
    }
    fonts.set_sans_serif_family("Inter");
    fonts.set_serif_family("Inter");
    fonts
}

/// Options that read nothing from outside: no file, no image, only `fonts`; `color` for
/// `currentColor`; a character no font has is noted in `missing`.
fn options<'a>(
    fonts: &Arc<fontdb::Database>,
    color: Option<&str>,
    missing: Arc<AtomicBool>,
) -> usvg::Options<'a> {
    usvg::Options {
        resources_dir: None,
        font_family: "Inter".to_owned(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        font_resolver: usvg::FontResolver {
            select_font: usvg::FontResolver::default_font_selector(),
            select_fallback: Box::new(move |_, _, _| {
                missing.store(true, Ordering::Relaxed);
                None
            }),
        },
        fontdb: Arc::clone(fonts),
        style_sheet: color.map(|color| format!("svg {{ color: {color}; }}")),
        ..usvg::Options::default()
    }
}

/// Parses an SVG of ours, saying whether a character had no font.
fn parse(
    text: &str,
    fonts: &Arc<fontdb::Database>,
    color: Option<&str>,
) -> Result<(usvg::Tree, bool), usvg::Error> {
    let missing = Arc::new(AtomicBool::new(false));
    let tree = usvg::Tree::from_str(text, &options(fonts, color, Arc::clone(&missing)))?;
    Ok((tree, missing.load(Ordering::Relaxed)))
}

/// The icon as a tree, or why it is not drawn.
fn read_icon(text: &str, fonts: &Arc<fontdb::Database>) -> Result<usvg::Tree, NoIcon> {
    if text.len() > MAX_ICON_BYTES {
        return Err(NoIcon::TooLarge(text.len()));
    }
    let lower = text.to_ascii_lowercase();
    if lower.contains("<!doctype") || lower.contains("<!entity") {
        return Err(NoIcon::Dtd);
    }
    let uses = lower.matches("<use").count();
    if uses > MAX_USES {
        return Err(NoIcon::TooManyUses(uses));
    }
    let (tree, _) =
        parse(text, fonts, Some("#ffffff")).map_err(|err| NoIcon::Unreadable(err.to_string()))?;
    let size = tree.size();
    if !tree.root().has_children() || size.width() <= 0.0 || size.height() <= 0.0 {
        return Err(NoIcon::Empty);
    }
    Ok(tree)
}

/// The name as drawn and its font size: the largest size it fits at, else cut to fit at the
/// smallest; the id instead when the fonts lack one of its characters.
fn fit_name(card: &Card<'_>, fonts: &Arc<fontdb::Database>) -> Result<(String, u32), OgError> {
    let name = clean(card.name);
    let (_, missing) = name_width(&name, NAME_SIZES[0], fonts)?;
    let name = if missing || name.is_empty() {
        clean(card.id)
    } else {
        name
    };
    for size in NAME_SIZES {
        if name_width(&name, size, fonts)?.0 <= TEXT_WIDTH {
            return Ok((name, size));
        }
    }
    let smallest = NAME_SIZES[NAME_SIZES.len() - 1];
    let chars: Vec<char> = name.chars().collect();
    // The longest prefix that fits with `…`, found by halving (at most ~10 measurements).
    let (mut fits, mut too_long) = (0, chars.len());
    while too_long - fits > 1 {
        let mid = (fits + too_long) / 2;
        let candidate = cut(&chars, mid);
        if name_width(&candidate, smallest, fonts)?.0 <= TEXT_WIDTH {
            fits = mid;
        } else {
            too_long = mid;
        }
    }
    Ok((cut(&chars, fits), smallest))
}

/// The first `n` characters and `…`.
fn cut(chars: &[char], n: usize) -> String {
    let mut out: String = chars[..n].iter().collect();
    out = out.trim_end().to_owned();
    out.push('…');
    out
}

/// How wide the name is at this size, and whether a character had no font.
fn name_width(
    name: &str,
    size: u32,
    fonts: &Arc<fontdb::Database>,
) -> Result<(f32, bool), OgError> {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\">\
         <text id=\"name\" x=\"0\" y=\"200\" font-family=\"Inter\" font-weight=\"700\" \
         font-size=\"{size}\">{}</text></svg>",
        escape(name)
    );
    let (tree, missing) = parse(&svg, fonts, None)?;
    let width = tree
        .node_by_id("name")
        .map_or(0.0, |node| node.abs_bounding_box().width());
    Ok((width, missing))
}

/// The card's own SVG: background, tile (with the monogram when given), name, id and version.
fn template(name: &str, name_size: u32, card: &Card<'_>, monogram: Option<&str>) -> String {
    let (x, y, side) = TILE;
    let monogram = monogram.map_or(String::new(), |letter| {
        format!(
            "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" font-family=\"Inter\" \
             font-weight=\"700\" font-size=\"150\" fill=\"#ffffff\">{}</text>",
            escape(letter),
            cx = x + side / 2.0,
            cy = y + side / 2.0 + 54.0,
        )
    });
    let version = clean(card.version);
    let version = if version.starts_with(['v', 'V']) {
        version
    } else {
        format!("v{version}")
    };
    let details = format!("{} · {}", clean(card.id), version);
    let details = if details.chars().count() > 60 {
        format!("{}…", details.chars().take(59).collect::<String>())
    } else {
        details
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\">\
         <defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\">\
         <stop offset=\"0\" stop-color=\"#0f172a\"/><stop offset=\"1\" stop-color=\"#1e1b4b\"/>\
         </linearGradient></defs>\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"url(#bg)\"/>\
         <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"12\" fill=\"#6366f1\"/>\
         <rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" rx=\"48\" fill=\"#4f46e5\"/>\
         {monogram}\
         <text x=\"{TEXT_X}\" y=\"300\" font-family=\"Inter\" font-weight=\"700\" \
         font-size=\"{name_size}\" fill=\"#ffffff\">{name}</text>\
         <text x=\"{TEXT_X}\" y=\"372\" font-family=\"Inter\" font-weight=\"400\" \
         font-size=\"36\" fill=\"#c7d2fe\">{details}</text>\
         <text x=\"96\" y=\"570\" font-family=\"Inter\" font-weight=\"700\" font-size=\"32\" \
         fill=\"#e0e7ff\">ACP Agent Registry</text>\
         <text x=\"1104\" y=\"570\" text-anchor=\"end\" font-family=\"Inter\" font-weight=\"400\" \
         font-size=\"28\" fill=\"#a5b4fc\">{site}</text></svg>",
        name = escape(name),
        details = escape(&details),
        site = escape(&clean(card.site)),
    )
}

/// Registry text on one line: control characters dropped, whitespace runs made one space.
fn clean(text: &str) -> String {
    text.split_whitespace()
        .map(|word| word.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Text for XML content and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}
