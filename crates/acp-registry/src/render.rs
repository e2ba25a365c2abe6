//! Printing diagnostics: `miette` excerpts for people, a JSON array for machines, and the
//! one-line summary.

use std::io::IsTerminal;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};
use registry_validate::{Diagnostic, Files, Severity, Validation};

/// Every diagnostic as a `miette` report: the file, line:column, an excerpt with the place
/// underlined, and the hint.
pub fn human(validation: &Validation, files: &Files) -> String {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for diagnostic in &validation.diagnostics {
        let report = report(diagnostic, files);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out.push_str(&diagnostic.to_string());
        }
        out.push('\n');
    }
    out
}

fn report(diagnostic: &Diagnostic, files: &Files) -> miette::Report {
    let severity = match diagnostic.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    };
    let text = files
        .get(&diagnostic.file)
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned());
    let base = MietteDiagnostic::new(diagnostic.message.clone())
        .with_code(format!(
            "{}[{}]",
            diagnostic.severity.as_str(),
            diagnostic.rule
        ))
        .with_severity(severity)
        .with_help(diagnostic.hint.clone());
    match (diagnostic.span, text) {
        (Some(span), Some(text)) => {
            let len = span.end.saturating_sub(span.start).max(1);
            let label = LabeledSpan::new_primary_with_span(None, (span.start, len));
            let named = NamedSource::new(&diagnostic.file, text);
            miette::Report::new(base.with_label(label)).with_source_code(named)
        }
        _ => {
            let message = format!("{}: {}", diagnostic.file, diagnostic.message);
            miette::Report::new(MietteDiagnostic { message, ..base })
        }
    }
}

/// The diagnostics as a JSON array, field names stable: `severity`, `rule`, `file`, `span`
/// (`start`, `end`, `line`, `column`, or null), `message`, `hint`.
pub fn json(validation: &Validation) -> String {
    serde_json::to_string_pretty(&validation.diagnostics).expect("diagnostics serialise")
}

/// `2 of 147 folders have errors, 41 warnings` (and the registry's own errors, if any).
pub fn summary(validation: &Validation) -> String {
    let failing = validation.failing_folders().len();
    let total = validation.entries.len();
    let warnings = validation.count(Severity::Warning);
    let registry_errors = validation
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && d.folder().is_none());
    let folders = match (failing, total) {
        (0, 1) => "1 folder checked, no errors".to_owned(),
        (0, total) => format!("{total} folders checked, no errors"),
        (1, 1) => "1 of 1 folder has errors".to_owned(),
        (1, total) => format!("1 of {total} folders has errors"),
        (failing, total) => format!("{failing} of {total} folders have errors"),
    };
    let warnings = match warnings {
        1 => "1 warning".to_owned(),
        n => format!("{n} warnings"),
    };
    let registry = if registry_errors {
        "the registry folder itself has errors; "
    } else {
        ""
    };
    format!("{registry}{folders}, {warnings}")
}
