//! Bounds resolved as far as the spec allows: a number, or a field of another endpoint's
//! response that only the running service knows.

use super::{Bound, Model};

/// A bound resolved as far as the spec allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A number known when generating.
    Static(i64),
    /// A field of another endpoint's response, known only at run time, plus an offset.
    Runtime { endpoint: String, field: String, offset: i64 },
}

/// Resolves a bound; `upper` picks a limit's maximum (or value) rather than its minimum, and
/// `bytes` converts a size limit to bytes. Returns `None` when the limit has no such side.
pub fn resolve(model: &Model, bound: &Bound, upper: bool, bytes: bool) -> Option<Resolved> {
    match bound {
        Bound::Value(_, v) => Some(Resolved::Static(*v)),
        // Fractional bounds are literals of floating-point fields, compared as written.
        Bound::Float(..) => None,
        Bound::Field { endpoint, field, offset } => Some(Resolved::Runtime { endpoint: endpoint.id.clone(), field: field.clone(), offset: *offset }),
        Bound::Limit { limit, offset } => {
            let limit = model.limit(&limit.id)?;
            let side = if upper { limit.max.as_ref().or(limit.value.as_ref()) } else { limit.min.as_ref() };
            let resolved = match side? {
                Bound::Value(_, v) if bytes => {
                    let factor: i64 = match limit.unit.id.as_str() {
                        "KiB" => 1 << 10,
                        "MiB" => 1 << 20,
                        "GiB" => 1 << 30,
                        _ => 1,
                    };
                    Resolved::Static(v.saturating_mul(factor))
                }
                nested => resolve(model, nested, upper, bytes)?,
            };
            Some(match resolved {
                Resolved::Static(v) => Resolved::Static(v + offset),
                Resolved::Runtime { endpoint, field, offset: o } => Resolved::Runtime { endpoint, field, offset: o + offset },
            })
        }
    }
}
