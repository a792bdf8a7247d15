//! Launch specs built in code: [`SpecBuilder`] writes the TOML a user would write and parses it
//! with [`LaunchSpec::from_toml_str`], so a spec built here passes exactly the validation a spec
//! file does (one parser, one set of rules).
//!
//! Parameters are appended in call order: every `buffer_*`/`output` call adds the buffer and a
//! `buffer = "<name>"` parameter; [`SpecBuilder::scalar`] adds a by-value parameter.
//!
//! ```
//! use interp::launch::builder::SpecBuilder;
//!
//! let spec = SpecBuilder::new("fdiv")
//!     .threads(256, 128)
//!     .values("a", "u32", [1, 2, 3])
//!     .output("out", "u32", 512)
//!     .scalar("u32", 256)
//!     .build()?;
//! assert_eq!(spec.grid, [2, 1, 1]);
//! assert_eq!(spec.params.len(), 3);
//! # Ok::<(), interp::launch::SpecError>(())
//! ```

use std::fmt::Write as _;

use super::{LaunchSpec, SpecError};

/// A launch spec under construction (see the module doc).
#[derive(Clone, Debug)]
pub struct SpecBuilder {
    kernel: String,
    grid: [u32; 3],
    block: [u32; 3],
    params: String,
    buffers: String,
}

impl SpecBuilder {
    /// A spec for entry `kernel`, one CTA of one thread until [`SpecBuilder::threads`] or
    /// [`SpecBuilder::grid`]/[`SpecBuilder::block`] say otherwise.
    pub fn new(kernel: &str) -> SpecBuilder {
        SpecBuilder {
            kernel: kernel.to_string(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            params: String::new(),
            buffers: String::new(),
        }
    }

    /// A one-dimensional launch of `n` threads in CTAs of `block` threads (`n` rounded up to
    /// whole CTAs).
    pub fn threads(self, n: u32, block: u32) -> SpecBuilder {
        let block = block.max(1);
        self.grid([n.div_ceil(block).max(1), 1, 1]).block([block, 1, 1])
    }

    /// CTAs per grid dimension.
    pub fn grid(mut self, grid: [u32; 3]) -> SpecBuilder {
        self.grid = grid;
        self
    }

    /// Threads per CTA dimension.
    pub fn block(mut self, block: [u32; 3]) -> SpecBuilder {
        self.block = block;
        self
    }

    /// An input buffer `name` of element type `ty` holding exactly `values` (integers, written
    /// as the spec's `values` list), passed as the next parameter.
    pub fn values(self, name: &str, ty: &str, values: impl IntoIterator<Item = u64>) -> SpecBuilder {
        let list: Vec<String> = values.into_iter().map(|v| v.to_string()).collect();
        let init = format!("{{ values = [{}] }}", list.join(", "));
        self.buffer(name, ty, list.len(), Some(&init), false)
    }

    /// An input buffer `name` of `len` elements of `ty`, initialised by the spec's `init` table
    /// `init` (TOML inline-table text, e.g. `{ edge = { seed = 7 } }`), passed as the next parameter.
    pub fn input(self, name: &str, ty: &str, len: usize, init: &str) -> SpecBuilder {
        self.buffer(name, ty, len, Some(init), false)
    }

    /// An output buffer `name` of `len` elements of `ty`, zero-filled (no `init`), passed as the
    /// next parameter.
    pub fn output(self, name: &str, ty: &str, len: usize) -> SpecBuilder {
        self.buffer(name, ty, len, None, true)
    }

    /// An output buffer `name` initialised by `init` (so that unwritten elements are visible).
    pub fn output_init(self, name: &str, ty: &str, len: usize, init: &str) -> SpecBuilder {
        self.buffer(name, ty, len, Some(init), true)
    }

    /// A by-value parameter of type `ty` (an integer value).
    pub fn scalar(mut self, ty: &str, value: u64) -> SpecBuilder {
        let _ = write!(self.params, "[[param]]\nscalar = {{ type = \"{ty}\", value = {value} }}\n");
        self
    }

    fn buffer(mut self, name: &str, ty: &str, len: usize, init: Option<&str>, output: bool) -> SpecBuilder {
        let _ = write!(self.params, "[[param]]\nbuffer = \"{name}\"\n");
        let _ = write!(self.buffers, "[buffer.{name}]\ntype = \"{ty}\"\nlen = {len}\n");
        if let Some(init) = init {
            let _ = writeln!(self.buffers, "init = {init}");
        }
        if output {
            self.buffers.push_str("output = true\n");
        }
        self
    }

    /// The spec as TOML text (what a `.run.toml` file of the same launch holds).
    pub fn to_toml(&self) -> String {
        let [gx, gy, gz] = self.grid;
        let [bx, by, bz] = self.block;
        format!(
            "kernel = \"{}\"\ngrid = [{gx}, {gy}, {gz}]\nblock = [{bx}, {by}, {bz}]\n{}{}",
            self.kernel, self.params, self.buffers
        )
    }

    /// The parsed, validated spec.
    pub fn build(&self) -> Result<LaunchSpec, SpecError> {
        LaunchSpec::from_toml_str(&self.to_toml())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::Param;

    #[test]
    fn builds_what_the_equivalent_file_says() {
        let built = SpecBuilder::new("k")
            .threads(300, 128)
            .output_init("out", "u32", 12, "{ fill = 7 }")
            .values("a", "u32", [0, u64::from(u32::MAX), 0x8000_0000])
            .input("b", "f64", 4, "{ edge = { seed = 3 } }")
            .scalar("u32", 300)
            .build()
            .unwrap();
        let file = LaunchSpec::from_toml_str(
            r#"kernel = "k"
grid = [3, 1, 1]
block = [128, 1, 1]
[[param]]
buffer = "out"
[[param]]
buffer = "a"
[[param]]
buffer = "b"
[[param]]
scalar = { type = "u32", value = 300 }
[buffer.out]
type = "u32"
len = 12
init = { fill = 7 }
output = true
[buffer.a]
type = "u32"
len = 3
init = { values = [0, 4294967295, 2147483648] }
[buffer.b]
type = "f64"
len = 4
init = { edge = { seed = 3 } }
"#,
        )
        .unwrap();
        assert_eq!(built, file);
        assert!(matches!(&built.params[3], Param::Scalar(_)));
        let mem = built.generate_buffers();
        assert_eq!(&mem["a"][4..8], &u32::MAX.to_le_bytes());
    }

    #[test]
    fn invalid_specs_are_refused_by_the_same_parser() {
        // A value that does not fit its element type is the parser's error, not a silent wrap.
        let err = SpecBuilder::new("k").values("a", "u8", [256]).build().unwrap_err();
        assert!(err.to_string().contains("buffer.a"), "{err}");
    }
}
