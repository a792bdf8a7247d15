//! Typed entity ids and the tables that own what they name.
//!
//! Every IR object that other objects point at (a basic block, an instruction, a virtual
//! register) is stored once in an [`EntityVec`] and referred to by a `u32` newtype id.
//!
//! Invariants:
//! - An id is only meaningful for the table (and so the function) that issued it.
//! - Ids are dense: `EntityVec::push` returns `len()` before the push; nothing is ever removed,
//!   so an id stays valid for the life of its table. Passes that delete objects unlink them
//!   (from a block's instruction list, from the layout) instead.
//! - Each id type prints the way the text format writes it (`bb3`, `inst7`, `v12`), so
//!   verifier messages and dumps agree.

use std::fmt;
use std::marker::PhantomData;

/// A `u32` index into an [`EntityVec`].
pub trait EntityRef: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// Makes the id of index `i`. Indices past `u32::MAX` are a program bug.
    fn new(i: usize) -> Self;
    /// The index this id names.
    fn index(self) -> usize;
}

macro_rules! entity {
    ($(#[$m:meta])* $name:ident, $prefix:expr) => {
        $(#[$m])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl EntityRef for $name {
            fn new(i: usize) -> Self {
                $name(u32::try_from(i).expect("entity index exceeds u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The id with this raw number.
            pub const fn from_u32(n: u32) -> Self {
                $name(n)
            }
            /// The raw number of this id.
            pub const fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }
    };
}

entity!(
    /// A basic block of a function (`bb3` in the text format).
    Block,
    "bb"
);
entity!(
    /// An instruction of a function (`inst7`; the text format does not print instruction ids).
    Inst,
    "inst"
);
entity!(
    /// A virtual register (`v12`; the text format prints it with its class, e.g. `%rd12`).
    VReg,
    "v"
);

/// A table of `V` indexed by the typed id `K`.
#[derive(Clone, PartialEq, Eq)]
pub struct EntityVec<K: EntityRef, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V> Default for EntityVec<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: fmt::Debug> fmt::Debug for EntityVec<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: EntityRef, V> EntityVec<K, V> {
    /// An empty table.
    pub const fn new() -> Self {
        EntityVec { items: Vec::new(), _key: PhantomData }
    }
    /// Appends `v` and returns its new id.
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.items.len());
        self.items.push(v);
        k
    }
    /// The entry for `k`, or `None` when `k` was not issued by this table.
    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }
    /// The entry for `k`, mutably.
    pub fn get_mut(&mut self, k: K) -> Option<&mut V> {
        self.items.get_mut(k.index())
    }
    /// Whether `k` names an entry of this table.
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.items.len()
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// All ids, in order.
    pub fn keys(&self) -> impl Iterator<Item = K> + use<K, V> {
        (0..self.items.len()).map(K::new)
    }
    /// All `(id, entry)` pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// All `(id, entry)` pairs, in order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.items.iter_mut().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// All entries, in order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.items.iter()
    }
}

impl<K: EntityRef, V> std::ops::Index<K> for EntityVec<K, V> {
    type Output = V;
    /// Panics when `k` was not issued by this table (a program bug; use [`EntityVec::get`] on
    /// untrusted ids).
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: EntityRef, V> std::ops::IndexMut<K> for EntityVec<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

/// A dense map from ids to `V` that grows on demand (for analysis results keyed by id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    items: Vec<V>,
    default: V,
    _key: PhantomData<K>,
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// A map where every id starts at `default`.
    pub fn with_default(default: V) -> Self {
        SecondaryMap { items: Vec::new(), default, _key: PhantomData }
    }
    /// The value for `k` (the default when never set).
    pub fn get(&self, k: K) -> &V {
        self.items.get(k.index()).unwrap_or(&self.default)
    }
    /// Sets the value for `k`.
    pub fn set(&mut self, k: K, v: V) {
        if k.index() >= self.items.len() {
            self.items.resize(k.index() + 1, self.default.clone());
        }
        self.items[k.index()] = v;
    }
}
