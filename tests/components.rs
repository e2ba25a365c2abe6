//! Component tests in a real browser (`cargo test -p acp-catalog --target wasm32-unknown-unknown`,
//! run by `cargo xtask test` under headless Chromium). Natively this file compiles to nothing.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use acp_catalog::components::facets::{FacetFieldset, FacetGroup, FacetOption};
use acp_catalog::components::highlight::Highlighted;
use acp_catalog::components::icon::AgentIcon;
use acp_catalog::components::notices::DiagnosticsNotice;
use acp_catalog::timing::sleep;
use leptos::prelude::*;
use registry_core::{Diagnostic, Facet, FacetValue, Kind, Location, Method, Severity};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a view into a fresh container and returns the container.
fn mount<V: IntoView + 'static>(f: impl FnOnce() -> V + 'static) -> web_sys::HtmlElement {
    let container = document()
        .create_element("div")
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>();
    document().body().unwrap().append_child(&container).unwrap();
    leptos::mount::mount_to(container.clone(), f).forget();
    container
}

async fn tick(ms: u64) {
    sleep(Duration::from_millis(ms)).await;
}

#[wasm_bindgen_test]
fn highlighted_text_marks_ranges_and_never_parses_markup() {
    let container = mount(|| {
        view! { <Highlighted text="<b>Gemini</b> CLI".to_owned() ranges=vec![3..9] /> }
    });
    let marks = container.query_selector_all("mark").unwrap();
    assert_eq!(marks.length(), 1);
    assert_eq!(marks.get(0).unwrap().text_content().unwrap(), "Gemini");
    assert_eq!(container.text_content().unwrap(), "<b>Gemini</b> CLI");
    assert!(container.query_selector("b").unwrap().is_none());
}

#[wasm_bindgen_test]
fn an_icon_without_url_is_a_monogram() {
    let container = mount(|| view! { <AgentIcon url=None name="opencode".to_owned() /> });
    assert_eq!(container.text_content().unwrap(), "O");
    assert!(container.query_selector(".icon-mask").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn an_icon_that_fails_to_load_becomes_a_monogram() {
    let url = window().location().origin().unwrap() + "/no-such-icon.svg";
    let container = mount(move || view! { <AgentIcon url=Some(url) name="Kimi CLI".to_owned() /> });
    for _ in 0..50 {
        if container.text_content().unwrap() == "K" {
            break;
        }
        tick(20).await;
    }
    assert_eq!(container.text_content().unwrap(), "K");
    assert!(container.query_selector(".icon-mask").unwrap().is_none());
}

#[wasm_bindgen_test]
fn the_diagnostics_notice_counts_and_locates_problems() {
    let diagnostics = vec![
        Diagnostic {
            severity: Severity::Error,
            location: Location::Entry {
                kind: Kind::Agent,
                index: 3,
                id: Some("broken".into()),
            },
            message: "missing field `name`".into(),
            hint: None,
        },
        Diagnostic {
            severity: Severity::Warning,
            location: Location::Registry,
            message: "the registry is JSONC".into(),
            hint: None,
        },
    ];
    let container = mount(move || view! { <DiagnosticsNotice diagnostics /> });
    let summary = container
        .query_selector("summary")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert_eq!(summary, "1 entry could not be shown, and 1 warning");
    let text = container.text_content().unwrap();
    assert!(text.contains("agents[3] (id \"broken\")"), "{text}");
    assert!(text.contains("missing field `name`"), "{text}");
}

#[wasm_bindgen_test]
fn a_facet_shows_counts_and_reports_toggles() {
    let toggled = RwSignal::new(Vec::<FacetValue>::new());
    let container = mount(move || {
        let option = |method, count, checked| FacetOption {
            value: FacetValue::Method(method),
            count,
            checked,
        };
        let groups = Memo::new(move |_| {
            vec![FacetGroup {
                facet: Facet::Method,
                options: vec![
                    option(Method::Npx, 68, true),
                    option(Method::Uvx, 9, false),
                    option(Method::Binary, 0, false),
                ],
            }]
        });
        let on_toggle = Callback::new(move |value: FacetValue| {
            toggled.update(|t| t.push(value));
        });
        view! { <FacetFieldset facet=Facet::Method groups=groups.into() on_toggle /> }
    });
    let text = container.text_content().unwrap();
    assert!(text.contains("npx (Node.js)68"), "{text}");
    let boxes = container
        .query_selector_all("input[type=checkbox]")
        .unwrap();
    assert_eq!(boxes.length(), 3);
    // An option that would leave no results cannot be chosen.
    let binary = boxes
        .get(2)
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    assert!(binary.disabled());
    binary.click();
    assert!(toggled.get_untracked().is_empty());
    let npx = boxes
        .get(0)
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    assert!(npx.checked());
    let uvx = boxes
        .get(1)
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    uvx.click();
    assert_eq!(toggled.get_untracked(), [FacetValue::Method(Method::Uvx)]);
    // The box is named as the query string names the group and the value.
    assert_eq!(
        (uvx.name(), uvx.value()),
        ("dist".to_owned(), "uvx".to_owned())
    );
    // Labels are tied to their boxes, so clicking the text toggles too.
    let label = container
        .query_selector("label[for]")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>();
    label.click();
    assert_eq!(toggled.get_untracked().len(), 2);
}
