//! Lowers SDK releases and the release policy.

use super::*;

impl Lower<'_> {
    pub(super) fn release(&mut self, s: S<raw::Release>) -> Release {
        let (span, v) = (self.span(&s), &s.value);
        let toolkits = v
            .toolkits
            .iter()
            .map(|t| {
                let tspan = self.span(t);
                let dropped = t.value.dropped.as_ref().map(|d| VersionRange { from: d.value.from.value.clone(), to: d.value.to.value.clone() });
                Toolkit { meta: meta!(self, t.value, tspan), minimum: t.value.minimum.value.clone(), dropped }
            })
            .collect();
        Release {
            meta: meta!(self, v, span),
            version: v.id.value.split('.').map(|n| n.parse().unwrap_or(0)).collect(),
            date: v.date.as_ref().map(|d| d.value.clone()),
            toolkits,
            packaging: v.packaging.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
        }
    }

    pub(super) fn release_policy(&mut self, s: S<raw::ReleasePolicy>) -> ReleasePolicy {
        let v = &s.value;
        ReleasePolicy {
            minor_releases_per_year: v.minor_releases_per_year.value,
            release_months: v.release_months.iter().map(|m| m.value).collect(),
            support_window: self.r#ref(&v.support_window),
            notes: Self::strings(&v.notes),
            windows: v
                .windows
                .iter()
                .map(|w| SupportWindow {
                    release: w.value.release.value.clone(),
                    date: w.value.date.value.clone(),
                    oldest_supported: w.value.oldest_supported.value.clone(),
                    newest_supported: w.value.newest_supported.value.clone(),
                    end_of_life_through: w.value.end_of_life_through.value.clone(),
                })
                .collect(),
            not_shown: self.gaps(&v.not_shown),
        }
    }
}
