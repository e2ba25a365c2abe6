//! How big an icon may be: bytes, nesting depth, elements and path segments.
//!
//! A 16x16 icon needs a few kilobytes (the largest of the registry's, 12.7 KB, has 42 elements,
//! 4 levels and 327 path segments). The limits are far above that and far below what makes a
//! browser tab or a build struggle: the 65 KB icon of one entity referenced 20,000 times, or
//! the 5 MB icon of one 880,000-segment path. Every pass over an icon (checking, measuring,
//! re-writing) is linear in its size, so the byte limit bounds the work of each; no clock is
//! involved, and the same icon gets the same verdict on every machine. The bounds and the
//! counting of path segments are `registry_core::icon_bounds`, shared with the site.
//!
//! The limits are `MAX_BYTES` (64 KiB), `MAX_DEPTH` (32), `MAX_ELEMENTS` (2,000) and
//! `MAX_PATH_SEGMENTS` (10,000), measured in one linear pass.

use std::fmt;

pub use registry_core::icon_bounds::{MAX_BYTES, MAX_ELEMENTS, MAX_PATH_SEGMENTS};
use registry_core::icon_bounds::{numbers, path_segments};
use roxmltree::{Document, Node};

/// The deepest an element may be nested (the root `<svg>` is at depth 1).
pub const MAX_DEPTH: usize = 32;
/// The most XML nodes (elements, text, comments…) the parser reads before giving up: it bounds
/// memory before [`MAX_ELEMENTS`] can be checked.
pub(crate) const MAX_NODES: u32 = 4 * MAX_ELEMENTS as u32 + 16;

/// Which limit an icon is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`MAX_BYTES`].
    Bytes,
    /// [`MAX_DEPTH`].
    Depth,
    /// [`MAX_ELEMENTS`] (or the parser's node limit).
    Elements,
    /// [`MAX_PATH_SEGMENTS`].
    PathSegments,
}

impl Limit {
    /// The limit's value.
    pub fn max(self) -> usize {
        match self {
            Limit::Bytes => MAX_BYTES,
            Limit::Depth => MAX_DEPTH,
            Limit::Elements => MAX_ELEMENTS,
            Limit::PathSegments => MAX_PATH_SEGMENTS,
        }
    }
}

impl fmt::Display for Limit {
    /// `bytes`, `levels of nesting`, `elements`, `path segments`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Bytes => "bytes",
            Limit::Depth => "levels of nesting",
            Limit::Elements => "elements",
            Limit::PathSegments => "path segments",
        })
    }
}

/// An icon over a limit: which, and how much it has (at least; counting stops past the limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverLimit {
    /// The limit.
    pub limit: Limit,
    /// How much the icon has.
    pub found: usize,
}

/// The first limit a parsed icon is over, in document order: depth and elements counted in one
/// pass (each element's depth is its parent's plus one, parents coming first), path segments
/// summed over every `d` and `points`.
pub(crate) fn measure(document: &Document<'_>) -> Option<OverLimit> {
    let mut depths: Vec<usize> = Vec::new();
    let (mut elements, mut segments) = (0usize, 0usize);
    for node in document.root().descendants().filter(Node::is_element) {
        let index = node.id().get() as usize;
        let parent = node
            .parent()
            .and_then(|p| depths.get(p.id().get() as usize).copied())
            .unwrap_or(0);
        if depths.len() <= index {
            depths.resize(index + 1, 0);
        }
        let depth = parent + 1;
        depths[index] = depth;
        elements += 1;
        if depth > MAX_DEPTH {
            return over(Limit::Depth, depth);
        }
        if elements > MAX_ELEMENTS {
            return over(Limit::Elements, elements);
        }
        segments += node_segments(node);
        if segments > MAX_PATH_SEGMENTS {
            return over(Limit::PathSegments, segments);
        }
    }
    None
}

fn over(limit: Limit, found: usize) -> Option<OverLimit> {
    Some(OverLimit { limit, found })
}

/// The path segments of an element: its `d`, and its `points` (one per pair).
fn node_segments(node: Node<'_, '_>) -> usize {
    let d = node.attribute("d").map_or(0, path_segments);
    let points = node.attribute("points").map_or(0, |p| numbers(p) / 2);
    d + points
}
