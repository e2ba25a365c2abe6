//! The icons of the pages rendered at build time (natively; never in the browser): what the
//! build read of each, and the stylesheet of the masks the pages drew.
//!
//! The renderer (`src/render.rs`) tells this module what it read of each icon that is a file of
//! the build ([`note_read_by_build`]); a page rendered afterwards draws an icon in its first
//! paint only when the build read it and it is within the bounds, its monogram when the build
//! refused it, and an empty tile, for the browser to read and measure first, when the build
//! could not read it (an icon on another host: the build fetches nothing). Each mask drawn is
//! remembered by its class (`remember_rendered`), and the renderer writes their rules into
//! [`ICONS_CSS`] ([`rendered_icons_css`]), since the site's Content-Security-Policy allows no
//! `style` attribute.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use registry_core::icon_measure::measure_icon;

use super::{Check, Refusal, icon_class, mask_value};

/// The build's stylesheet of the icons its pages show, beside `index.html` (linked from every
/// page the build renders, and resolved, like the pages' URLs, against their `<base>`).
pub const ICONS_CSS: &str = "icons.css";

thread_local! {
    /// What the build found reading each icon that is a file of the build, by URL (see
    /// [`note_read_by_build`]).
    static READ_BY_BUILD: RefCell<HashMap<String, Check>> = RefCell::new(HashMap::new());
}

/// Notes, at build time, what reading the icon at `url` (as [`icon_url`](super::icon_url) gives
/// it) found: its text when it is a file of the build, `None` when the build cannot read it (an
/// icon on another host: the build fetches nothing). Pages rendered afterwards draw it only when it was
/// read and is within the bounds ([`measure_icon`]); a refused one gets its monogram, and one the
/// build could not read an empty tile that the browser fills once it has read and measured it.
pub fn note_read_by_build(url: &str, text: Option<&str>) {
    let check = text.map(|text| match measure_icon(text) {
        Ok(()) => Check::Drawable(url.to_owned()),
        Err(unfit) => Check::Refused(Refusal::Unfit(unfit)),
    });
    READ_BY_BUILD.with(|read| match check {
        Some(check) => {
            read.borrow_mut().insert(url.to_owned(), check);
        }
        None => {
            read.borrow_mut().remove(url);
        }
    });
}

/// What the build found reading the icon at `url`, if it could read it.
pub(super) fn read_by_build(url: &str) -> Option<Check> {
    READ_BY_BUILD.with(|read| read.borrow().get(url).cloned())
}

thread_local! {
    /// The icons rendered (natively, at build time) since the last [`rendered_icons_css`], by
    /// class.
    static RENDERED: RefCell<BTreeMap<String, String>> = const { RefCell::new(BTreeMap::new()) };
}

/// Notes that a page being rendered at build time shows `url` (never in the browser, which
/// sets the mask itself).
pub(super) fn remember_rendered(url: &str) {
    if cfg!(not(target_arch = "wasm32")) {
        RENDERED.with(|rendered| {
            rendered
                .borrow_mut()
                .insert(icon_class(url), mask_value(url));
        });
    }
}

/// The stylesheet of every icon rendered since the last call (one rule a class, sorted), and
/// forgets them: what the build writes into [`ICONS_CSS`].
pub fn rendered_icons_css() -> String {
    RENDERED.with(|rendered| {
        std::mem::take(&mut *rendered.borrow_mut())
            .into_iter()
            .map(|(class, value)| format!(".{class}{{--icon:{value}}}\n"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_icons_are_one_rule_a_class() {
        let _ = rendered_icons_css();
        for url in ["./b.svg", "./a.svg", "./b.svg"] {
            remember_rendered(url);
        }
        let css = rendered_icons_css();
        let (a, b) = (icon_class("./a.svg"), icon_class("./b.svg"));
        assert_ne!(a, b);
        assert_eq!(a.len(), "icon-".len() + 16);
        let mut rules = [
            format!(".{a}{{--icon:url(\"./a.svg\")}}\n"),
            format!(".{b}{{--icon:url(\"./b.svg\")}}\n"),
        ];
        rules.sort();
        assert_eq!(css, rules.concat());
        assert_eq!(rendered_icons_css(), "", "forgotten once taken");
    }
}
