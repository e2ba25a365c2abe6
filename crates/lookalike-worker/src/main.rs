//! The look-alike worker (`acp-lookalikes`): a dedicated worker the catalogue starts, so that
//! finding entries that could pass for others, with Unicode's tables, is neither downloaded
//! with the page's wasm nor run on its thread (see `acp_catalog::registry::lookalikes`).

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    use acp_lookalikes::{READY, answer, bytes_of, transferable};

    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        if let Some(answer) = bytes_of(&event.data()).and_then(|bytes| answer(&bytes)) {
            let (data, transfer) = transferable(&answer);
            let _ = reply.post_message_with_transfer(&data, &transfer);
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "acp-lookalikes is the catalogue's look-alike worker, built to WebAssembly by Trunk \
         (`cargo xtask dist`)"
    );
    std::process::exit(2);
}
