//! The `-v` resource report, parsed.
//!
//! ptxas prints, per module, `N bytes gmem[, M bytes cmem[K]]...`, and per function
//! ```text
//! ptxas info    : Compiling entry function 'k' for 'sm_90'      (entries only)
//! ptxas info    : Function properties for k
//!     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//! ptxas info    : Used 10 registers, used 0 barriers[, 256 bytes smem, 360 bytes cmem[0], ...]
//! ptxas info    : Compile time = 1.915 ms
//! ```
//! Non-entry functions get only the properties block (and, under `-c`, a compile time).
//! The `Used` line's items are comma-separated and optional; every item ptxas has a format
//! string for is recognised, and an unknown item is kept verbatim in [`FunctionResources::other`]
//! so a new ptxas item is visible rather than silently dropped.

use crate::diag::{self, Severity};

/// Module-level figures (`N bytes gmem, M bytes cmem[K]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleResources {
    /// Bytes of global memory (`__device__` variables).
    pub gmem: u64,
    /// `(bank, bytes)` for each constant bank listed.
    pub cmem: Vec<(u32, u64)>,
}

/// One function's figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunctionResources {
    /// Function name as printed (mangled for C++ device functions).
    pub name: String,
    /// Whether a `Compiling entry function` line introduced it.
    pub entry: bool,
    /// The arch named in `Compiling entry function '...' for '<arch>'`.
    pub arch: Option<String>,
    /// `Used N registers`.
    pub registers: Option<u32>,
    /// `used N barriers`.
    pub barriers: Option<u32>,
    /// `N bytes smem`.
    pub smem: Option<u64>,
    /// `N bytes lmem`.
    pub lmem: Option<u64>,
    /// `N bytes cmem[K]` items on the Used line.
    pub cmem: Vec<(u32, u64)>,
    /// `N textures`, `N surfaces`, `N samplers`.
    pub textures: Option<u32>,
    /// See [`Self::textures`].
    pub surfaces: Option<u32>,
    /// See [`Self::textures`].
    pub samplers: Option<u32>,
    /// `N bytes cumulative stack size`.
    pub cumulative_stack: Option<u64>,
    /// From the properties line.
    pub stack_frame: Option<u64>,
    /// From the properties line.
    pub spill_stores: Option<u64>,
    /// From the properties line.
    pub spill_loads: Option<u64>,
    /// `Compile time = X ms`.
    pub compile_time_ms: Option<f64>,
    /// Items of the Used line not recognised above.
    pub other: Vec<String>,
}

/// Everything `-v` reported.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    /// One per module line, in order.
    pub modules: Vec<ModuleResources>,
    /// Functions in the order ptxas reported them.
    pub functions: Vec<FunctionResources>,
}

impl Resources {
    /// The figures of the function `name` (the last report of it, should it repeat).
    pub fn function(&self, name: &str) -> Option<&FunctionResources> {
        self.functions.iter().rev().find(|f| f.name == name)
    }
}

fn quoted(s: &str) -> Option<&str> {
    let start = s.find('\'')? + 1;
    let len = s[start..].find('\'')?;
    Some(&s[start..start + len])
}

/// `"N bytes cmem[K]"` → `(K, N)`.
fn cmem_item(item: &str) -> Option<(u32, u64)> {
    let (n, rest) = item.split_once(" bytes cmem[")?;
    Some((rest.strip_suffix(']')?.parse().ok()?, n.trim().parse().ok()?))
}

fn module_line(msg: &str) -> Option<ModuleResources> {
    let mut items = msg.split(", ");
    let gmem = items.next()?.strip_suffix(" bytes gmem")?.parse().ok()?;
    let cmem = items.map(cmem_item).collect::<Option<Vec<_>>>()?;
    Some(ModuleResources { gmem, cmem })
}

fn used_line(f: &mut FunctionResources, msg: &str) {
    for item in msg.split(", ") {
        let words: Vec<&str> = item.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        let small = |i: usize| num(i).and_then(|v| u32::try_from(v).ok());
        match words.as_slice() {
            ["Used", _, "registers"] => f.registers = small(1),
            ["used", _, "barriers"] => f.barriers = small(1),
            [_, "bytes", "smem"] => f.smem = num(0),
            [_, "bytes", "lmem"] => f.lmem = num(0),
            [_, "textures"] => f.textures = small(0),
            [_, "surfaces"] => f.surfaces = small(0),
            [_, "samplers"] => f.samplers = small(0),
            [_, "bytes", "cumulative", "stack", "size"] => f.cumulative_stack = num(0),
            _ => match cmem_item(item) {
                Some(c) => f.cmem.push(c),
                None => f.other.push(item.to_string()),
            },
        }
    }
}

fn properties_line(f: &mut FunctionResources, line: &str) {
    for item in line.trim().split(", ") {
        let (n, what) = item.split_once(" bytes ").unwrap_or(("", ""));
        let n = n.parse().ok();
        match what {
            "stack frame" => f.stack_frame = n,
            "spill stores" => f.spill_stores = n,
            "spill loads" => f.spill_loads = n,
            _ => {}
        }
    }
}

/// Parses the `-v` lines out of ptxas's stderr.
pub fn parse(stderr: &str) -> Resources {
    let mut r = Resources::default();
    let mut current: Option<usize> = None;
    let mut expect_properties = false;
    for line in stderr.lines() {
        if expect_properties && line.starts_with("    ") {
            if let Some(i) = current {
                properties_line(&mut r.functions[i], line);
            }
            expect_properties = false;
            continue;
        }
        expect_properties = false;
        let Some(d) = diag::parse_line(line) else { continue };
        if d.severity != Severity::Info || d.file.is_some() {
            continue;
        }
        let msg = d.message.as_str();
        if let Some(rest) = msg.strip_prefix("Compiling entry function ") {
            let name = quoted(rest).unwrap_or("").to_string();
            let arch = rest.split(" for ").nth(1).and_then(quoted).map(str::to_string);
            r.functions.push(FunctionResources { name, entry: true, arch, ..Default::default() });
            current = Some(r.functions.len() - 1);
        } else if let Some(name) = msg.strip_prefix("Function properties for ") {
            let reuse = current.filter(|&i| r.functions[i].name == name && r.functions[i].stack_frame.is_none());
            current = Some(reuse.unwrap_or_else(|| {
                r.functions.push(FunctionResources { name: name.to_string(), ..Default::default() });
                r.functions.len() - 1
            }));
            expect_properties = true;
        } else if msg.starts_with("Used ") {
            if let Some(i) = current {
                used_line(&mut r.functions[i], msg);
            }
        } else if let Some(t) = msg.strip_prefix("Compile time = ") {
            if let Some(i) = current {
                r.functions[i].compile_time_ms = t.trim_end_matches(" ms").parse().ok();
            }
        } else if let Some(m) = module_line(msg) {
            r.modules.push(m);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sm80_report_with_device_function() {
        let s = "ptxas info    : 64 bytes gmem, 32 bytes cmem[3], 8 bytes cmem[4]
ptxas info    : Compiling entry function 'kern' for 'sm_80'
ptxas info    : Function properties for kern
    128 bytes stack frame, 0 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 128 bytes cumulative stack size, 256 bytes smem, 364 bytes cmem[0], 1 textures
ptxas info    : Compile time = 3.487 ms
ptxas info    : Function properties for _Z6helperfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
";
        let r = parse(s);
        assert_eq!(r.modules, vec![ModuleResources { gmem: 64, cmem: vec![(3, 32), (4, 8)] }]);
        let k = r.function("kern").unwrap();
        assert!(k.entry);
        assert_eq!(k.arch.as_deref(), Some("sm_80"));
        assert_eq!((k.registers, k.barriers, k.smem), (Some(32), Some(1), Some(256)));
        assert_eq!(k.cmem, vec![(0, 364)]);
        assert_eq!((k.cumulative_stack, k.textures), (Some(128), Some(1)));
        assert_eq!((k.stack_frame, k.spill_stores, k.spill_loads), (Some(128), Some(0), Some(4)));
        assert_eq!(k.compile_time_ms, Some(3.487));
        assert!(k.other.is_empty());
        let h = r.function("_Z6helperfi").unwrap();
        assert!(!h.entry);
        assert_eq!(h.stack_frame, Some(0));
        assert_eq!(h.registers, None);
    }

    #[test]
    fn unknown_items_are_kept() {
        let r = parse(
            "ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used 8 registers, used 0 barriers, 3 widgets\n",
        );
        assert_eq!(r.functions[0].other, vec!["3 widgets".to_string()]);
    }
}
