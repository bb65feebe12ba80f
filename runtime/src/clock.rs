//! Where "now" comes from: the system clock in production, a fixed instant in tests.
//!
//! A request reads its clock once, so it never straddles the effective instant of a change.

pub use jiff::Timestamp;
use std::sync::Arc;

/// A source of the current instant.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock stopped at one instant: tests put it on either side of a dated change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock(pub Timestamp);

impl FixedClock {
    /// A clock stopped at `text`, an RFC 3339 instant (`YYYY-MM-DDThh:mm:ssZ`).
    pub fn parse(text: &str) -> Result<Self, jiff::Error> {
        text.parse().map(Self)
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.0
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for Box<C> {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}
