//! Which build of the registry a page shows, when it was published, and how old the probe
//! beside it is.
//!
//! The registry publishes every build twice (`FORMAT.md`, the CI's release job): as an
//! immutable dated snapshot, `…/registry/v1/v2026.08.20-1a2b3c4/registry.json`, and as
//! `…/registry/v1/latest/registry.json`. An [`Edition`] is found, first that applies:
//!
//! 1. the site's `registryEdition` setting: a snapshot name or a day (`2026-08-20`), for a copy
//!    whose address says nothing (the bundled one);
//! 2. a snapshot named in the registry's URL;
//! 3. the response's `Last-Modified` (in the browser, once the registry has been fetched);
//!
//! else it is unknown, and pages say so. With a snapshot name and a URL under `/latest/`, the
//! snapshot's own immutable URL is linked.
//!
//! The probe file is dated by its `date`, each agent's result by its `probedAt`; a probe
//! [`STALE_PROBE_DAYS`] or more older than the registry build is flagged, never shown as current.
//! Days are taken as written (the registry writes its times in UTC, `+00:00`). In JSON a [`Day`]
//! is its text, `"2026-08-20"`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A probe this many days (or more) older than the registry build shown is flagged as old:
/// the probe runs daily, so this is several missed runs.
pub const STALE_PROBE_DAYS: i64 = 4;

/// A calendar day (UTC), as days since 1970-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(i64);

impl Day {
    /// A day written `YYYY-MM-DD`, perhaps followed by a time (`2026-08-20T05:47:32+00:00`): the
    /// day as written, the time and its offset ignored; `None` for anything else or a date that
    /// does not exist.
    pub fn parse(text: &str) -> Option<Day> {
        let text = text.trim();
        let date = text.get(..10)?;
        let rest = &text[10..];
        if !(rest.is_empty() || rest.starts_with(['T', 't', ' '])) {
            return None;
        }
        let mut parts = date.split('-');
        let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
        let number = |part: &str, len: usize| {
            (part.len() == len && part.bytes().all(|b| b.is_ascii_digit()))
                .then(|| part.parse::<i64>().ok())
                .flatten()
        };
        Day::from_civil(number(year, 4)?, number(month, 2)?, number(day, 2)?)
    }

    /// The day of an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`), as `Last-Modified` has it.
    pub fn from_http_date(text: &str) -> Option<Day> {
        let time = httpdate::parse_http_date(text.trim()).ok()?;
        let seconds = time.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
        Some(Day(seconds as i64 / 86_400))
    }

    /// The day of a time in milliseconds since the Unix epoch (JavaScript's `Date.now()`).
    pub fn from_unix_ms(ms: f64) -> Day {
        Day((ms / 86_400_000.0).floor() as i64)
    }

    /// Days from `earlier` to this day (negative when `earlier` is later).
    pub fn days_since(self, earlier: Day) -> i64 {
        self.0 - earlier.0
    }

    /// The day of a year, month (1–12) and day of the month, when it exists.
    fn from_civil(year: i64, month: i64, day: i64) -> Option<Day> {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let length = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if !(1..=length).contains(&day) {
            return None;
        }
        // Days from civil, after Howard Hinnant's algorithm (a year counted from March).
        let year = if month <= 2 { year - 1 } else { year };
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        Some(Day(era * 146_097 + day_of_era - 719_468))
    }

    /// (year, month, day) of this day.
    fn civil(self) -> (i64, i64, i64) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }
}

impl fmt::Display for Day {
    /// `2026-08-20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = self.civil();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

impl Serialize for Day {
    /// `"2026-08-20"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Day {
    /// A day as [`Day::parse`] reads it.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Day, D::Error> {
        let text = String::deserialize(deserializer)?;
        Day::parse(&text)
            .ok_or_else(|| de::Error::custom(format!("`{text}` is not a day like 2026-08-20")))
    }
}

/// One of the registry's immutable dated builds: `v2026.08.20-1a2b3c4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Its name, as the registry writes it.
    pub name: String,
    /// The day in its name.
    pub day: Day,
}

impl Snapshot {
    /// A snapshot name: `v` + `YYYY.MM.DD` + `-` + a commit (hexadecimal).
    pub fn parse(name: &str) -> Option<Snapshot> {
        let rest = name.strip_prefix('v')?;
        let (date, commit) = rest.split_once('-')?;
        let commit_ok = !commit.is_empty() && commit.bytes().all(|b| b.is_ascii_hexdigit());
        let day = Day::parse(&date.replace('.', "-")).filter(|_| date.len() == 10 && commit_ok)?;
        Some(Snapshot {
            name: name.to_owned(),
            day,
        })
    }

    /// The snapshot a URL's path names, as one of its segments.
    pub fn in_url(url: &str) -> Option<Snapshot> {
        let path = url.split(['?', '#']).next().unwrap_or(url);
        path.split('/').find_map(Snapshot::parse)
    }
}

/// Where an [`Edition`]'s day was learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditionSource {
    /// The site's `registryEdition` setting.
    Setting,
    /// The snapshot named in the registry's URL.
    Url,
    /// The registry response's `Last-Modified`.
    LastModified,
    /// Nothing says.
    Unknown,
}

/// Which build of the registry is shown, and when it was published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edition {
    /// The dated build, when known.
    pub snapshot: Option<Snapshot>,
    /// When it was published, when known.
    pub published: Option<Day>,
    /// Where that was learnt.
    pub source: EditionSource,
    /// The immutable URL of the snapshot's `registry.json`, when known.
    pub link: Option<String>,
}

impl Default for Edition {
    fn default() -> Edition {
        Edition {
            snapshot: None,
            published: None,
            source: EditionSource::Unknown,
            link: None,
        }
    }
}

impl Edition {
    /// The edition of the registry at `registry_url` (absolute), from the `setting` (a snapshot
    /// name or a day), else the URL, else the response's `last_modified`.
    pub fn find(setting: Option<&str>, registry_url: &str, last_modified: Option<&str>) -> Edition {
        let setting = setting.map(str::trim).filter(|s| !s.is_empty());
        if let Some(snapshot) = setting.and_then(Snapshot::parse) {
            return Edition::of_snapshot(snapshot, EditionSource::Setting, registry_url);
        }
        if let Some(day) = setting.and_then(Day::parse) {
            return Edition {
                published: Some(day),
                source: EditionSource::Setting,
                ..Edition::default()
            };
        }
        if let Some(snapshot) = Snapshot::in_url(registry_url) {
            return Edition::of_snapshot(snapshot, EditionSource::Url, registry_url);
        }
        match last_modified.and_then(Day::from_http_date) {
            Some(day) => Edition {
                published: Some(day),
                source: EditionSource::LastModified,
                ..Edition::default()
            },
            None => Edition::default(),
        }
    }

    fn of_snapshot(snapshot: Snapshot, source: EditionSource, registry_url: &str) -> Edition {
        let link = if Snapshot::in_url(registry_url).is_some_and(|s| s == snapshot) {
            Some(registry_url.to_owned())
        } else {
            registry_url
                .contains("/latest/")
                .then(|| registry_url.replacen("/latest/", &format!("/{}/", snapshot.name), 1))
        };
        Edition {
            published: Some(snapshot.day),
            snapshot: Some(snapshot),
            source,
            link,
        }
    }

    /// Whether a setting (`registryEdition`) can be read: a snapshot name or a day.
    pub fn is_setting(text: &str) -> bool {
        Snapshot::parse(text.trim()).is_some() || Day::parse(text.trim()).is_some()
    }

    /// How many days a probe of `probe` day is older than this build, when that is
    /// [`STALE_PROBE_DAYS`] or more: the probe is then flagged.
    pub fn stale_probe(&self, probe: Day) -> Option<i64> {
        let lag = self.published?.days_since(probe);
        (lag >= STALE_PROBE_DAYS).then_some(lag)
    }
}

/// "3 days", "1 day", "less than a day" for a number of days; months past 60 days ("4 months").
pub fn days_words(days: i64) -> String {
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match days {
        ..=0 => "less than a day".to_owned(),
        1..=60 => plural(days, "day"),
        _ => plural(days / 30, "month"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).expect("a day")
    }

    #[test]
    fn days_read_and_print() {
        for text in [
            "1970-01-01",
            "2000-02-29",
            "2026-08-20",
            "2026-12-31",
            "1969-12-31",
        ] {
            assert_eq!(day(text).to_string(), text);
        }
        assert_eq!(day("1970-01-02").days_since(day("1970-01-01")), 1);
        assert_eq!(day("2026-12-07").days_since(day("2026-08-20")), 109);
        assert_eq!(day("2026-08-20T05:47:32+00:00"), day("2026-08-20"));
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-8-20",
            "20260820",
            "2026-08-20x",
            "latest",
            "",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Day::from_http_date("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(day("2015-10-21"))
        );
        assert_eq!(Day::from_http_date("yesterday"), None);
        assert_eq!(Day::from_unix_ms(1_445_412_480_000.0), day("2015-10-21"));
    }

    #[test]
    fn days_in_json_are_their_text() {
        assert_eq!(
            serde_json::to_string(&day("2026-08-20")).ok().as_deref(),
            Some(r#""2026-08-20""#)
        );
        let read = |json: &str| serde_json::from_str::<Day>(json).map_err(|e| e.to_string());
        assert_eq!(read(r#""2026-08-20""#), Ok(day("2026-08-20")));
        assert_eq!(
            read(r#""2026-02-30""#),
            Err("`2026-02-30` is not a day like 2026-08-20".to_owned())
        );
        assert!(read("20260820").is_err());
    }

    #[test]
    fn snapshots_are_named_by_day_and_commit() {
        let snapshot = Snapshot::parse("v2026.08.20-1a2b3c4").expect("a snapshot");
        assert_eq!(snapshot.day, day("2026-08-20"));
        for bad in [
            "latest",
            "v2026.08.20",
            "v2026.8.20-1a2b",
            "2026.08.20-1a2b",
            "v2026.08.20-xyz",
        ] {
            assert_eq!(Snapshot::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Snapshot::in_url("https://cdn.example/registry/v1/v2026.12.01-abc123/registry.json")
                .map(|s| s.name),
            Some("v2026.12.01-abc123".to_owned())
        );
        assert_eq!(
            Snapshot::in_url("https://cdn.example/registry/v1/latest/registry.json"),
            None
        );
    }

    #[test]
    fn an_edition_from_the_setting_the_url_or_the_response() {
        let latest = "https://cdn.example/registry/v1/latest/registry.json";
        let dated = "https://cdn.example/registry/v1/v2026.12.01-abc123/registry.json";
        let from_setting = Edition::find(
            Some("v2026.12.02-def456"),
            latest,
            Some("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(from_setting.source, EditionSource::Setting);
        assert_eq!(from_setting.published, Some(day("2026-12-02")));
        assert_eq!(
            from_setting.link.as_deref(),
            Some("https://cdn.example/registry/v1/v2026.12.02-def456/registry.json")
        );
        let a_day = Edition::find(Some("2026-08-20"), "registry.json", None);
        assert_eq!(
            (a_day.published, a_day.link),
            (Some(day("2026-08-20")), None)
        );
        let from_url = Edition::find(None, dated, Some("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(from_url.source, EditionSource::Url);
        assert_eq!(from_url.link.as_deref(), Some(dated));
        let from_header = Edition::find(None, latest, Some("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(
            (from_header.source, from_header.published, from_header.link),
            (EditionSource::LastModified, Some(day("2015-10-21")), None)
        );
        assert_eq!(Edition::find(None, latest, None), Edition::default());
        assert_eq!(
            Edition::find(Some("soon"), latest, None),
            Edition::default()
        );
        assert!(Edition::is_setting("v2026.12.02-def456") && Edition::is_setting("2026-12-02"));
        assert!(!Edition::is_setting("December"));
    }

    #[test]
    fn an_old_probe_is_flagged() {
        let edition = Edition::find(Some("2026-12-07"), "registry.json", None);
        assert_eq!(edition.stale_probe(day("2026-08-20")), Some(109));
        assert_eq!(edition.stale_probe(day("2026-12-03")), Some(4));
        assert_eq!(edition.stale_probe(day("2026-12-04")), None);
        assert_eq!(edition.stale_probe(day("2026-12-08")), None);
        assert_eq!(Edition::default().stale_probe(day("2020-01-01")), None);
        assert_eq!(days_words(1), "1 day");
        assert_eq!(days_words(109), "3 months");
        assert_eq!(days_words(0), "less than a day");
    }
}
