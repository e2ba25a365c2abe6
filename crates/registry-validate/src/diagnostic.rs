//! What a check reports: a [`Diagnostic`] names the [`Rule`] it breaks, the file, the place in
//! that file ([`Span`]), what is wrong and the one-line fix.
//!
//! Its `severity` is `registry-core`'s `Severity`; `Rule` has one variant per rule, each with a
//! stable kebab-case code (`icon-missing`, `version-mismatch`); a `Span` is a byte range with the
//! line and column where it starts.

use std::fmt;
use std::ops::Range;

pub use registry_core::Severity;
use serde::Serialize;

/// Every rule the validator checks; its [`Rule::as_str`] is the stable code shown to people and
/// written by `--format json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// `agent.schema.json` is missing at the top of the registry folder: schema checks skipped
    /// (warning).
    SchemaMissing,
    /// `agent.schema.json` is not JSON, or not a JSON Schema: no entry can be checked against it.
    SchemaInvalid,
    /// A folder holds an `extension.json`, which the registry's CI no longer reads: beside an
    /// `agent.json` it is ignored, alone the folder is skipped (warning).
    ManifestConflict,
    /// A folder holds files but no `agent.json`; it is skipped (warning, as in the CI).
    NoManifest,
    /// The manifest is not UTF-8 text.
    Encoding,
    /// The manifest is not JSON (nor JSONC).
    JsonSyntax,
    /// The manifest is JSONC (comments, trailing commas): the registry's CI parses strict JSON
    /// and refuses it. It is still read here, so its other problems are reported too.
    Jsonc,
    /// The same key twice in one object: the last one wins (warning).
    DuplicateKey,
    /// The manifest breaks `agent.schema.json`.
    Schema,
    /// A value the rules read has the wrong JSON type.
    WrongType,
    /// A required field is missing: `id`, `name`, `version`, `description`, `distribution`,
    /// a binary target's `archive`/`cmd`, a package's `package`.
    RequiredField,
    /// The RFD's older manifest shape: platform targets directly under `distribution` (an
    /// error, as the schema says), or a top-level field it dropped (`homepage`,
    /// `schema_version`, `capabilities`, `auth`: a warning, as the CI publishes them as they
    /// are).
    LegacyShape,
    /// A top-level field the registry's format does not have: the CI accepts and publishes
    /// it, no client reads it (warning, naming the field meant when it is a near miss).
    UnknownField,
    /// `id` is empty, does not start with a letter, or has characters other than `a-z`, `0-9`
    /// and `-` (`registry_core::id::is_slug`).
    IdFormat,
    /// `id` is longer than `registry_core::id::MAX_LEN` bytes, too long to name the files and
    /// folders the catalogue writes for it.
    IdTooLong,
    /// `id` differs from the folder name.
    IdFolderMismatch,
    /// Two folders declare the same `id` (across agents and extensions).
    IdDuplicate,
    /// `version` does not have three dot-separated numeric parts, or is a prerelease.
    VersionFormat,
    /// The `preview` block is not `{"version", "distribution"}`: not an object, a key other than
    /// those two, or one of them missing.
    PreviewShape,
    /// `preview.version` is neither `X.Y.Z` nor `X.Y.Z-preview.N`.
    PreviewVersion,
    /// `preview.distribution` is empty, or has a method other than `npx` and `uvx` (a preview
    /// cannot be a binary).
    PreviewDistribution,
    /// `distribution` is empty or not an object.
    DistributionEmpty,
    /// `distribution` has a key other than `binary`, `npx`, `uvx`.
    DistributionUnknownMethod,
    /// `distribution.binary` is empty or not an object.
    BinaryEmpty,
    /// A `distribution.binary` key is not one of the six known platforms.
    UnknownPlatform,
    /// `distribution.binary` has no build for one of darwin, linux, windows (warning).
    MissingOsFamily,
    /// A binary target's `cmd` does not name a file inside the unpacked archive: empty,
    /// absolute, with a drive letter, climbing out with `..`, or with a `\` outside a Windows
    /// target (`registry_core::model::cmd_problem`).
    CmdPath,
    /// An archive is an installer (`.dmg`, `.pkg`, `.deb`, `.rpm`, `.msi`, `.appimage`).
    ArchiveInstaller,
    /// A binary archive URL contains `/latest/`.
    LatestUrl,
    /// An npx or uvx package is pinned to `@latest`.
    LatestPackage,
    /// A version in an archive URL or a package spec differs from `version`.
    VersionMismatch,
    /// The folder has no `icon.svg`.
    IconMissing,
    /// `icon-light.svg` without `icon-dark.svg`, or the other way round.
    IconThemePair,
    /// The icon is not well-formed XML (or not UTF-8).
    IconXml,
    /// The icon has `<!--` comments.
    IconComment,
    /// The icon's root element is not `<svg>`.
    IconRoot,
    /// The root `<svg>` is not in the SVG namespace, so browsers will not draw it (warning).
    IconNamespace,
    /// The icon has no size, is not square, or is not 16x16.
    IconSize,
    /// A `fill`/`stroke` (attribute, inline style or `<style>` block) is neither
    /// `currentColor`, `none` nor `inherit`.
    IconColor,
    /// The icon never uses `currentColor`, so it cannot follow the theme.
    IconNoCurrentColor,
    /// The icon has a `<script>` element.
    IconScript,
    /// The icon has an event-handler attribute (`onload`, `onclick`, ...).
    IconEventHandler,
    /// The icon references something outside itself (`href`, `xlink:href`, `url(...)` or
    /// `@import` not pointing at a local `#fragment`, or an image-loading CSS function such as
    /// `image-set(`).
    IconExternalReference,
    /// The icon has a `<foreignObject>`.
    IconForeignObject,
    /// The icon's `<!DOCTYPE>` declares entities (an internal subset, `[…]`): they can hide
    /// markup from the checks, or expand into megabytes.
    IconDtd,
    /// An animation element (`<set>`, `<animate>`…) sets a link (`href`, `xlink:href`) or an
    /// event handler.
    IconAnimation,
    /// The icon's CSS (`style`, a presentation attribute, `<style>`) has an escape (`\`), which
    /// can spell `url(` or `@import` past any check.
    IconCssEscape,
    /// The icon is over one of the limits of `registry_validate::limits`: bytes, nesting depth,
    /// elements, path segments.
    IconTooLarge,
    /// The name or id could pass for another folder's entry (Unicode TR39 confusables, or the
    /// same name), mixes scripts, holds invisible characters, or a link shows one host and
    /// leads to another (warning).
    Lookalike,
    /// An archive URL did not answer 200, or a package does not exist, or the URL (or a
    /// redirect's target) was refused unasked: not https, or a host with a non-public address
    /// (`--check-urls`).
    UrlUnreachable,
}

impl Rule {
    /// For a rule stricter than the registry's CI (an error here, accepted there), why this
    /// tool refuses what the CI accepts; `None` for the CI's own rules.
    pub fn beyond_ci(self) -> Option<&'static str> {
        match self {
            Rule::IconScript
            | Rule::IconEventHandler
            | Rule::IconExternalReference
            | Rule::IconForeignObject
            | Rule::IconDtd
            | Rule::IconAnimation
            | Rule::IconCssEscape => Some(
                "clients and catalogues draw icons inline in their pages, where this could run \
                 script or load other files",
            ),
            Rule::IconTooLarge => Some("every page that lists the agent would carry this icon"),
            Rule::IconThemePair => Some("the RFD's theme icons come as a pair"),
            Rule::CmdPath => {
                Some("a client would start a file the archive did not bring, or fail to find it")
            }
            Rule::IdTooLong => Some("the id names the files and folders written for the agent"),
            _ => None,
        }
    }

    /// The stable kebab-case code: `icon-missing`, `version-mismatch`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::SchemaMissing => "schema-missing",
            Rule::SchemaInvalid => "schema-invalid",
            Rule::ManifestConflict => "manifest-conflict",
            Rule::NoManifest => "no-manifest",
            Rule::Encoding => "encoding",
            Rule::JsonSyntax => "json-syntax",
            Rule::Jsonc => "jsonc",
            Rule::DuplicateKey => "duplicate-key",
            Rule::Schema => "schema",
            Rule::WrongType => "wrong-type",
            Rule::RequiredField => "required-field",
            Rule::LegacyShape => "legacy-shape",
            Rule::UnknownField => "unknown-field",
            Rule::IdFormat => "id-format",
            Rule::IdTooLong => "id-too-long",
            Rule::IdFolderMismatch => "id-folder-mismatch",
            Rule::IdDuplicate => "id-duplicate",
            Rule::VersionFormat => "version-format",
            Rule::PreviewShape => "preview-shape",
            Rule::PreviewVersion => "preview-version",
            Rule::PreviewDistribution => "preview-distribution",
            Rule::DistributionEmpty => "distribution-empty",
            Rule::DistributionUnknownMethod => "distribution-unknown-method",
            Rule::BinaryEmpty => "binary-empty",
            Rule::UnknownPlatform => "unknown-platform",
            Rule::MissingOsFamily => "missing-os-family",
            Rule::CmdPath => "cmd-path",
            Rule::ArchiveInstaller => "archive-installer",
            Rule::LatestUrl => "latest-url",
            Rule::LatestPackage => "latest-package",
            Rule::VersionMismatch => "version-mismatch",
            Rule::IconMissing => "icon-missing",
            Rule::IconThemePair => "icon-theme-pair",
            Rule::IconXml => "icon-xml",
            Rule::IconComment => "icon-comment",
            Rule::IconRoot => "icon-root",
            Rule::IconNamespace => "icon-namespace",
            Rule::IconSize => "icon-size",
            Rule::IconColor => "icon-color",
            Rule::IconNoCurrentColor => "icon-no-current-color",
            Rule::IconScript => "icon-script",
            Rule::IconEventHandler => "icon-event-handler",
            Rule::IconExternalReference => "icon-external-reference",
            Rule::IconForeignObject => "icon-foreign-object",
            Rule::IconDtd => "icon-dtd",
            Rule::IconAnimation => "icon-animation",
            Rule::IconCssEscape => "icon-css-escape",
            Rule::IconTooLarge => "icon-too-large",
            Rule::Lookalike => "lookalike",
            Rule::UrlUnreachable => "url-unreachable",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in a file: a byte range, and where it starts as a 1-based line and column (in
/// characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset just past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, counted in characters.
    pub column: usize,
}

impl Span {
    /// The span of `range` in `text`, with its line and column. A range past the end or inside a
    /// character is moved to the nearest character boundary before it.
    pub fn new(text: &str, range: Range<usize>) -> Span {
        let start = floor_boundary(text, range.start);
        let end = floor_boundary(text, range.end).max(start);
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..start].chars().count() + 1;
        Span {
            start,
            end,
            line,
            column,
        }
    }

    /// The span starting at a 1-based `line` and `column` (in characters), `len` bytes long.
    pub fn at_line_column(text: &str, line: usize, column: usize, len: usize) -> Span {
        let line_start = text
            .split_inclusive('\n')
            .take(line.saturating_sub(1))
            .map(str::len)
            .sum::<usize>();
        let rest = &text[line_start.min(text.len())..];
        let offset = rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i);
        let start = line_start.min(text.len()) + offset;
        Span::new(text, start..start.saturating_add(len))
    }

    /// The byte range.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// One problem: which rule, where, what is wrong and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The rule broken.
    pub rule: Rule,
    /// The file, relative to the registry folder, with `/` separators: `gemini/agent.json`.
    pub file: String,
    /// Where in the file; `None` when the problem is the file as a whole (a missing icon).
    pub span: Option<Span>,
    /// What is wrong, in a sentence.
    pub message: String,
    /// The fix, in one line.
    pub hint: String,
}

impl Diagnostic {
    /// The entry folder the diagnostic is about (`gemini` for `gemini/agent.json`); `None` for
    /// the registry as a whole (`agent.schema.json`).
    pub fn folder(&self) -> Option<&str> {
        self.file.split_once('/').map(|(folder, _)| folder)
    }
}

impl fmt::Display for Diagnostic {
    /// `error[icon-size]: gemini/icon.svg:1:1: the icon is 14x16 ... (hint: ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.rule,
            self.file
        )?;
        if let Some(span) = self.span {
            write!(f, ":{}:{}", span.line, span.column)?;
        }
        write!(f, ": {} (hint: {})", self.message, self.hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_count_lines_and_characters() {
        let text = "{\n  \"é\": 1,\n  \"v\": \"x\"\n}";
        let table = [(0, 1, 1), (4, 2, 3), (9, 2, 7), (15, 3, 3), (99, 4, 2)];
        for (offset, line, column) in table {
            let span = Span::new(text, offset..offset + 1);
            assert_eq!((span.line, span.column), (line, column), "offset {offset}");
        }
    }

    #[test]
    fn line_and_column_back_to_offsets() {
        let text = "ab\ncdé\nf";
        let table = [(1, 1, 0), (2, 1, 3), (2, 4, 7), (3, 1, 8), (9, 9, 9)];
        for (line, column, offset) in table {
            assert_eq!(Span::at_line_column(text, line, column, 0).start, offset);
        }
    }
}
