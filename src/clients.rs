//! The ACP clients the catalogue knows (`data/clients.json`, read by
//! `registry_core::clients`), as the pages that show them read them: `/clients/`, a client's
//! page, and an agent page's "In your editor". The build publishes the profiles beside the
//! pages as `clients.json`; in the browser they are fetched only by the pages that show them
//! ([`crate::site_files`]).

use leptos::prelude::*;
use registry_core::clients::{Profiles, parse_profiles};

use crate::site_files::{FileKind, FileStatus, LazyFile};

/// The file the build writes beside the pages.
pub const CLIENTS_FILE: &str = "clients.json";

/// The attribute of an element that shows the profiles (the components write it as
/// `data-clients`).
pub const CLIENTS_MARK: &str = "data-clients";

/// The page listing the clients, without the base path.
pub const CLIENTS_PAGE: &str = "/clients/";

/// A client's page, without the base path: `/clients/<id>/`.
pub fn client_page(id: &str) -> String {
    format!("/clients/{id}/")
}

/// The profiles and where loading them stands.
pub type ClientsState = LazyFile<Profiles>;

/// Where loading the profiles stands.
pub type ClientsStatus = FileStatus<Profiles>;

/// What a page says when the build wrote no profiles.
pub const NO_CLIENTS: &str = "this site was built without the client profiles";

/// The profiles as a file beside the pages. The build publishes only profiles that load, so a
/// diagnostic here means the file was changed after the build: the good profiles still show.
pub static CLIENTS: FileKind<Profiles> = FileKind {
    file: CLIENTS_FILE,
    mark: CLIENTS_MARK,
    missing: NO_CLIENTS,
    parse: |text| parse_profiles(text).map_err(|error| error.to_string()),
};

/// The profiles provided to the app; none in an app that shows no clients (the listing
/// preview).
pub fn use_clients() -> Option<ClientsState> {
    use_context::<ClientsState>()
}
