//! `sitemap.xml` and `robots.txt` for the published site.
//!
//! [`sitemap_xml`] lists every pre-rendered page (paths relative to the site root, as the build
//! writes them: `""` for the home page, `agents/gemini/`) by its canonical URL under the site's
//! [`SiteAddress`], XML-escaped, in the order given, each once. [`robots_txt`] allows
//! everything and points at the sitemap (an absolute URL, as the format wants).

use std::collections::BTreeSet;

use crate::address::SiteAddress;
use crate::badge::escape_xml;

/// The sitemap's file name, at the site's root.
pub const SITEMAP: &str = "sitemap.xml";

/// The text of `sitemap.xml` listing these pages.
pub fn sitemap_xml<'a>(address: &SiteAddress, paths: impl IntoIterator<Item = &'a str>) -> String {
    let mut seen = BTreeSet::new();
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in paths {
        let url = address.url(path);
        if seen.insert(url.clone()) {
            out.push_str("  <url><loc>");
            out.push_str(&escape_xml(&url));
            out.push_str("</loc></url>\n");
        }
    }
    out.push_str("</urlset>\n");
    out
}

/// The text of `robots.txt`: everything allowed, and where the sitemap is.
pub fn robots_txt(address: &SiteAddress) -> String {
    format!(
        "User-agent: *\nAllow: /\n\nSitemap: {}\n",
        address.url(SITEMAP)
    )
}
