//! Files the build writes beside the pages that only some pages show (the change log, the
//! client profiles), as those pages read them.
//!
//! At build time the renderer gives each file it wrote ([`LazyFile::ready`]). In the browser a
//! file is fetched only by a page that shows it, once ([`LazyFile::want`]): the catalogue's
//! first load never carries it. When the app takes over a built page that shows one (the page
//! has an element with the file's [`FileKind::mark`]), the take-over waits for it like the
//! registry's optional files ([`SiteFiles::want_shown`], [`SiteFiles::shown_settled`]), so
//! what the build wrote does not go and come back.

use std::fmt;
use std::sync::Arc;

use leptos::prelude::*;

/// One kind of file: where it is published, how pages mark that they show it, how it is read.
pub struct FileKind<T> {
    /// The file's name beside the pages.
    pub file: &'static str,
    /// The attribute of an element that shows the file, by which the start-up knows the page it
    /// takes over needs it.
    pub mark: &'static str,
    /// What a page says when the build wrote none.
    pub missing: &'static str,
    /// Reads the file's text.
    pub parse: fn(&str) -> Result<T, String>,
}

/// Where a file stands.
pub enum FileStatus<T> {
    /// Not asked for, or not answered yet.
    Pending,
    /// Read.
    Loaded(Arc<T>),
    /// There is none, or it could not be read: why, in a sentence.
    Missing(String),
}

impl<T> fmt::Debug for FileKind<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileKind")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl<T> Clone for FileStatus<T> {
    fn clone(&self) -> Self {
        match self {
            FileStatus::Pending => FileStatus::Pending,
            FileStatus::Loaded(file) => FileStatus::Loaded(Arc::clone(file)),
            FileStatus::Missing(why) => FileStatus::Missing(why.clone()),
        }
    }
}

impl<T> PartialEq for FileStatus<T> {
    /// Two reads are equal when they are the same read (a file is read once).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (FileStatus::Pending, FileStatus::Pending) => true,
            (FileStatus::Loaded(a), FileStatus::Loaded(b)) => Arc::ptr_eq(a, b),
            (FileStatus::Missing(a), FileStatus::Missing(b)) => a == b,
            _ => false,
        }
    }
}

impl<T> fmt::Debug for FileStatus<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileStatus::Pending => f.write_str("Pending"),
            FileStatus::Loaded(_) => f.write_str("Loaded"),
            FileStatus::Missing(why) => f.debug_tuple("Missing").field(why).finish(),
        }
    }
}

/// A file and where loading it stands; `Copy`, shared through context.
pub struct LazyFile<T: Send + Sync + 'static> {
    status: RwSignal<FileStatus<T>>,
    asked: StoredValue<bool>,
    kind: &'static FileKind<T>,
}

impl<T: Send + Sync + 'static> Clone for LazyFile<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for LazyFile<T> {}

impl<T: Send + Sync + 'static> fmt::Debug for LazyFile<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyFile")
            .field("file", &self.kind.file)
            .finish_non_exhaustive()
    }
}

impl<T: Send + Sync + 'static> LazyFile<T> {
    /// The file the build wrote, or none.
    pub fn ready(kind: &'static FileKind<T>, file: Option<T>) -> LazyFile<T> {
        let status = match file {
            Some(file) => FileStatus::Loaded(Arc::new(file)),
            None => FileStatus::Missing(kind.missing.to_owned()),
        };
        LazyFile {
            status: RwSignal::new(status),
            asked: StoredValue::new(true),
            kind,
        }
    }

    /// Nothing asked for yet: the browser's, until a page wants it.
    pub fn pending(kind: &'static FileKind<T>) -> LazyFile<T> {
        LazyFile {
            status: RwSignal::new(FileStatus::Pending),
            asked: StoredValue::new(false),
            kind,
        }
    }

    /// The kind of file.
    pub fn kind(self) -> &'static FileKind<T> {
        self.kind
    }

    /// Where the file stands: tracked.
    pub fn status(self) -> FileStatus<T> {
        self.status.get()
    }

    /// The file, once read: tracked.
    pub fn loaded(self) -> Option<Arc<T>> {
        self.status.with(|status| match status {
            FileStatus::Loaded(file) => Some(Arc::clone(file)),
            FileStatus::Pending | FileStatus::Missing(_) => None,
        })
    }

    /// Whether the file is read or known to be missing: tracked.
    pub fn settled(self) -> bool {
        self.status.with(|s| !matches!(s, FileStatus::Pending))
    }

    /// Asks for the file, the first time only (in the browser; at build time it is there).
    pub fn want(self) {
        if self.asked.get_value() {
            return;
        }
        self.asked.set_value(true);
        #[cfg(target_arch = "wasm32")]
        leptos::task::spawn_local(async move {
            let status = fetch(self.kind).await;
            self.status.set(status);
        });
    }
}

/// Fetches and reads a file published beside the pages.
#[cfg(target_arch = "wasm32")]
async fn fetch<T>(kind: &FileKind<T>) -> FileStatus<T> {
    use crate::registry::http::{self, GetError, Options};
    use crate::registry::{FetchError, page_base, resolve};

    let url = resolve(kind.file, &page_base()).unwrap_or_else(|| kind.file.to_owned());
    let text = match http::get(&url, &Options::default(), &|_| {}).await {
        Ok(fetched) => fetched.text(&url),
        Err(GetError::Failed(FetchError::Http { status: 404, .. })) => {
            return FileStatus::Missing(kind.missing.to_owned());
        }
        Err(error) => Err(error.into_fetch_error(&url)),
    };
    match text.map(|text| (kind.parse)(&text)) {
        Ok(Ok(file)) => FileStatus::Loaded(Arc::new(file)),
        Ok(Err(error)) => FileStatus::Missing(format!("{url} could not be read: {error}")),
        Err(error) => FileStatus::Missing(error.to_string()),
    }
}
