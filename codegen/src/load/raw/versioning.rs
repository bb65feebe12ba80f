//! SDK releases, their toolkit requirements, and the release policy with its support windows.

use super::{Gap, S};
use indexmap::IndexMap;
use serde::Deserialize;

item! {
    /// A release of the social SDK (`1.10.19337`: major.minor.build).
    pub struct Release {
        #[serde(default)]
        pub date: Option<S<String>>,
        /// Minimum console toolkit versions, by console family.
        #[serde(default)]
        pub toolkits: Vec<S<Toolkit>>,
        /// Packaging and library facts of the release.
        #[serde(default)]
        pub packaging: IndexMap<S<String>, S<String>>,
    }
}

item! {
    /// A console toolkit requirement of a release.
    pub struct Toolkit {
        /// The minimum version, as written (`241000`, `10.000`).
        pub minimum: S<String>,
        /// The versions no longer supported, a range as written (`230600` to `240605`).
        #[serde(default)]
        pub dropped: Option<S<VersionRange>>,
    }
}

/// A range of versions, both ends included, as the source writes them.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionRange {
    pub from: S<String>,
    pub to: S<String>,
}

/// How SDK releases are made and supported.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleasePolicy {
    /// Minor releases per year.
    pub minor_releases_per_year: S<i64>,
    /// Months (1..=12) of the minor releases.
    pub release_months: Vec<S<i64>>,
    /// The limit that sizes the support window.
    pub support_window: S<String>,
    #[serde(default)]
    pub notes: Vec<S<String>>,
    /// Worked examples of the window.
    #[serde(default)]
    pub windows: Vec<S<SupportWindow>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
}

/// The supported window as of one release.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupportWindow {
    /// The minor release that opens this window (`1.10`).
    pub release: S<String>,
    /// `YYYY-MM`.
    pub date: S<String>,
    pub oldest_supported: S<String>,
    pub newest_supported: S<String>,
    /// The newest minor that reached end of life.
    pub end_of_life_through: S<String>,
}
