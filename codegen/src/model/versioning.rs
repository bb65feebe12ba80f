//! SDK releases, their toolkit requirements, and the release policy with its support windows.

use super::{Gap, Meta, Ref};
use indexmap::IndexMap;
use serde::Serialize;

/// An SDK release; `version` is the id split into numbers.
#[derive(Clone, Debug, Serialize)]
pub struct Release {
    #[serde(flatten)]
    pub meta: Meta,
    pub version: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub toolkits: Vec<Toolkit>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub packaging: IndexMap<String, String>,
}

/// A console toolkit requirement.
#[derive(Clone, Debug, Serialize)]
pub struct Toolkit {
    #[serde(flatten)]
    pub meta: Meta,
    pub minimum: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<VersionRange>,
}

/// A range of versions, both ends included, as written.
#[derive(Clone, Debug, Serialize)]
pub struct VersionRange {
    pub from: String,
    pub to: String,
}

/// The SDK release policy.
#[derive(Clone, Debug, Serialize)]
pub struct ReleasePolicy {
    pub minor_releases_per_year: i64,
    pub release_months: Vec<i64>,
    pub support_window: Ref,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub windows: Vec<SupportWindow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
}

/// A worked example of the support window.
#[derive(Clone, Debug, Serialize)]
pub struct SupportWindow {
    pub release: String,
    pub date: String,
    pub oldest_supported: String,
    pub newest_supported: String,
    pub end_of_life_through: String,
}
