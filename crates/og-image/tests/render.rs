//! Link-preview images: their size, the icon or the monogram in the tile, names that do not
//! fit or cannot be drawn, and hostile icons that must render without reading anything, in
//! bounded time, or fall back to the monogram.

use std::time::{Duration, Instant};

use og_image::{Card, HEIGHT, IconUse, MAX_ICON_BYTES, MAX_USES, NoIcon, WIDTH, render};

const _: () = assert!(
    2 * 12 + 1 > MAX_USES,
    "the bomb below must exceed the limit"
);

const CLAUDE: &str = include_str!("../../../public/claude-acp.svg");

/// Decodes a PNG: its size and RGBA pixels.
fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

/// How many near-white pixels the icon's tile has (the icon and the monogram are white on
/// indigo).
fn white_in_tile(pixels: &[u8]) -> usize {
    let mut white = 0;
    for y in 175..455 {
        for x in 96..376 {
            let i = ((y * WIDTH + x) * 4) as usize;
            if pixels[i] > 230 && pixels[i + 1] > 230 && pixels[i + 2] > 230 {
                white += 1;
            }
        }
    }
    white
}

fn card<'a>(name: &'a str, icon: Option<&'a str>) -> Card<'a> {
    Card {
        name,
        id: "gemini",
        version: "0.56.0",
        icon_svg: icon,
        site: "agentclientprotocol.com",
    }
}

#[test]
fn a_card_is_1200_by_630_with_the_icon_in_its_tile() {
    let image = render(&card("Gemini CLI", Some(CLAUDE))).expect("renders");
    assert_eq!(image.icon, IconUse::Icon);
    assert_eq!(image.name, "Gemini CLI");
    let (width, height, pixels) = decode(&image.png);
    assert_eq!((width, height), (WIDTH, HEIGHT));
    assert_eq!((width, height), (1200, 630));
    assert!(white_in_tile(&pixels) > 2_000, "{}", white_in_tile(&pixels));
}

#[test]
fn the_monogram_stands_in_when_there_is_no_usable_icon() {
    let drawn = white_in_tile(
        &decode(
            &render(&card("Gemini CLI", Some(CLAUDE)))
                .expect("renders")
                .png,
        )
        .2,
    );
    for (icon, reason) in [
        (None, NoIcon::Missing),
        (Some("not svg at all"), NoIcon::Unreadable(String::new())),
        (
            Some("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'/>"),
            NoIcon::Empty,
        ),
    ] {
        let image = render(&card("Gemini CLI", icon)).expect("renders");
        match (&image.icon, &reason) {
            (IconUse::Monogram(NoIcon::Unreadable(message)), NoIcon::Unreadable(_)) => {
                assert!(!message.is_empty());
            }
            (found, _) => assert_eq!(found, &IconUse::Monogram(reason.clone())),
        }
        let white = white_in_tile(&decode(&image.png).2);
        // A "G", drawn: white, and not the icon's pixels.
        assert!(white > 1_000 && white != drawn, "{icon:?}: {white}");
    }
}

/// Renders and checks it took less than a few seconds.
fn bounded(icon: &str) -> og_image::Rendered {
    let start = Instant::now();
    let image = render(&card("Hostile", Some(icon))).expect("renders");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    image
}

#[test]
fn hostile_icons_read_nothing_and_stay_bounded() {
    let plain = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>\
                 <rect x='2' y='2' width='12' height='12' fill='currentColor'/></svg>";
    let reference = bounded(plain).png;
    // An existing file of this checkout, and a data URL: neither is loaded, so each icon draws
    // exactly what it draws without them. Scripts and event handlers are never run.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../public/claude-acp.svg");
    for extra in [
        format!("<image href='{file}' width='16' height='16'/>"),
        format!("<image href='file://{file}' width='16' height='16'/>"),
        "<image href='https://example.invalid/x.png' width='16' height='16'/>".to_owned(),
        "<image href='data:image/svg+xml;utf8,&lt;svg xmlns=\"http://www.w3.org/2000/svg\"&gt;&lt;rect width=\"99\" height=\"99\"/&gt;&lt;/svg&gt;' width='16' height='16'/>".to_owned(),
        "<script>for(;;){}</script>".to_owned(),
        "<foreignObject width='16' height='16'><p xmlns='http://www.w3.org/1999/xhtml'>x</p></foreignObject>".to_owned(),
    ] {
        let icon = plain.replace("</svg>", &format!("{extra}</svg>"));
        let image = bounded(&icon);
        assert_eq!(image.icon, IconUse::Icon, "{extra}");
        assert!(image.png == reference, "{extra} changed the picture");
    }
    // Huge in every way that stays under the byte limit: renders, in bounded time.
    for icon in [
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16' onload='alert(1)'>\
         <filter id='f' x='-1e6' y='-1e6' width='2e6' height='2e6'><feGaussianBlur stdDeviation='1e5'/></filter>\
         <rect width='1e9' height='1e9' fill='currentColor' filter='url(#f)'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' width='1e9' height='1e9'>\
         <circle cx='5e8' cy='5e8' r='4e8' fill='currentColor'/></svg>",
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>\
         <g id='a'><use href='#a'/><rect width='4' height='4' fill='currentColor'/></g></svg>",
    ] {
        let image = bounded(icon);
        assert!(
            matches!(image.icon, IconUse::Icon | IconUse::Monogram(_)),
            "{icon}"
        );
    }
    // Refused before parsing.
    let big = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>{}</svg>",
        "<path d='M0 0h1'/>".repeat(MAX_ICON_BYTES / 16)
    );
    let laughs = "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaa'>\
                  <!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'><!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'>]>\
                  <svg xmlns='http://www.w3.org/2000/svg'><text>&c;</text></svg>";
    let bomb = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><defs>\
         <rect id='l0' width='1' height='1' fill='currentColor'/>{}</defs><use href='#l12'/></svg>",
        (1..=12)
            .map(|i| format!(
                "<g id='l{i}'><use href='#l{p}'/><use href='#l{p}'/></g>",
                p = i - 1
            ))
            .collect::<String>()
    );
    for (icon, expected) in [
        (big.as_str(), NoIcon::TooLarge(big.len())),
        (laughs, NoIcon::Dtd),
        (bomb.as_str(), NoIcon::TooManyUses(2 * 12 + 1)),
    ] {
        assert_eq!(bounded(icon).icon, IconUse::Monogram(expected));
    }
}

#[test]
fn names_are_set_smaller_then_cut_or_replaced_by_the_id() {
    let long = "The Extraordinarily Long Name Of An Agent That Goes On And On";
    let image = render(&card(long, None)).expect("renders");
    assert!(image.name.ends_with('…'), "{}", image.name);
    assert!(
        long.starts_with(image.name.trim_end_matches('…')),
        "{}",
        image.name
    );
    assert!(image.name.chars().count() > 10, "{}", image.name);
    // The bundled fonts have no Han characters: the id is drawn instead of boxes.
    assert_eq!(
        render(&card("通义灵码", None)).expect("renders").name,
        "gemini"
    );
    // Markup in a name is text.
    let image = render(&card("<b>&amp;</b>", None)).expect("renders");
    assert_eq!(image.name, "<b>&amp;</b>");
    assert_eq!(decode(&image.png).0, WIDTH);
    // The site's name is part of the picture.
    let elsewhere = Card {
        site: "example.org/acp",
        ..card("Gemini CLI", None)
    };
    assert!(
        render(&elsewhere).expect("renders").png
            != render(&card("Gemini CLI", None)).expect("renders").png
    );
}

#[test]
fn an_entry_renders_with_its_own_fields() {
    let text = include_str!("../../../public/registry.json");
    let registry = registry_core::load(text).expect("a registry").registry;
    let claude = registry
        .entries
        .iter()
        .find(|e| e.id == "claude-acp")
        .expect("claude-acp");
    let image =
        og_image::render_entry(claude, Some(CLAUDE), "agentclientprotocol.com").expect("renders");
    assert_eq!(
        (image.icon, image.name.as_str()),
        (IconUse::Icon, claude.name.as_str())
    );
}
