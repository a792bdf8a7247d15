//! The CUDA system functions — `vprintf`, `malloc`, `free`, `__assertfail` — as one *service*
//! both executors call: the Ori interpreter when a `call` names one (the module has no body
//! for it), the SASS emulator when a `CALL.ABS` jumps to the address the (emulated) driver
//! relocated into the `.nv.constant4` slot of the undefined symbol ([`address_of`]). The
//! service is shared on purpose: what the executors are tested on is that the program reaches
//! the call with the right arguments (the ABI registers, the packed argument buffer in local
//! memory, the generic addresses of the strings), not the formatting of `printf`, which is the
//! host's job on a GPU too.
//!
//! # Semantics
//!
//! - **`vprintf(fmt, args)`** formats as CUDA's `printf`: `args` is the generic address of a
//!   packed buffer in which every argument sits at its natural alignment: 4-byte `int`s and
//!   `char`s (`%d %i %u %o %x %X %c` without a length), 8-byte 64-bit integers (`l`, `ll`, `z`,
//!   `j`, `t`), 8-byte `double`s (every float conversion: C promotes `float` to `double`) and
//!   8-byte pointers (`%s %p`). It returns the number of arguments parsed (CUDA
//!   Programming Guide, "Formatted Output"), -1 for a null format. The text goes into the
//!   launch's log ([`Services::log`]): records sorted by CTA then thread (each linear index,
//!   x fastest), a thread's records in the order it printed. On a GPU the interleaving of
//!   different threads' output is unspecified; within a thread it is program order, which is
//!   what the sorted log keeps, so two executors that schedule warps differently agree.
//! - **`malloc(size)` / `free(p)`**: a device heap of [`HEAP_BYTES`] (CUDA's default
//!   `cudaLimitMallocHeapSize`, 8 MiB) allocated in global memory, as its own allocation
//!   (`@heap`, after every other) at the first `malloc`. First fit over a free list, blocks
//!   16-byte aligned (the alignment CUDA's `malloc` guarantees); `malloc` returns 0 when no
//!   block fits and for a size of 0; `free(0)` does nothing; `free` of anything else than a
//!   live block's address is an error. Addresses depend on the order threads call `malloc`,
//!   so they may differ between executors (tests compare what the program computes, not
//!   pointer values).
//! - **`__assertfail(message, file, line, function, char_size)`** stops the launch with
//!   [`SysError::Assertion`], which the executor locates (kernel, CTA, thread).
//!
//! Invariants: the heap's live and free blocks are disjoint and lie inside `@heap`; nothing
//! here panics on any argument value (bad addresses are faults, returned).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::memory::{Fault, GlobalMemory};

/// A CUDA system function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SysFn {
    /// `int vprintf(const char *fmt, void *args)`.
    Vprintf,
    /// `void *malloc(size_t)`.
    Malloc,
    /// `void free(void *)`.
    Free,
    /// `void __assertfail(const char *msg, const char *file, unsigned line, const char *func, size_t char_size)`.
    AssertFail,
}

const ALL: [SysFn; 4] = [SysFn::Vprintf, SysFn::Malloc, SysFn::Free, SysFn::AssertFail];

impl SysFn {
    /// The system function of this name.
    pub fn by_name(name: &str) -> Option<SysFn> {
        ALL.into_iter().find(|f| f.name() == name)
    }
    /// Its symbol name.
    pub fn name(self) -> &'static str {
        match self {
            SysFn::Vprintf => "vprintf",
            SysFn::Malloc => "malloc",
            SysFn::Free => "free",
            SysFn::AssertFail => "__assertfail",
        }
    }
    /// Whether it returns a value.
    pub fn returns(self) -> bool {
        matches!(self, SysFn::Vprintf | SysFn::Malloc)
    }
    /// Its parameters' widths in 32-bit words (the ABI's argument registers hold them in
    /// order from R4, a two-word one at an even register).
    pub fn param_words(self) -> &'static [usize] {
        match self {
            SysFn::Vprintf => &[2, 2],
            SysFn::Malloc | SysFn::Free => &[2],
            SysFn::AssertFail => &[2, 2, 1, 2, 2],
        }
    }
    /// The system function at an address [`address_of`] gave.
    pub fn at_address(a: u64) -> Option<SysFn> {
        ALL.into_iter().find(|f| address_of(*f) == a)
    }
}

/// The code address the emulated driver relocates a system function's `.nv.constant4` slot
/// to: never memory, never our code (which starts at 0 of its section), 16-byte aligned.
pub fn address_of(f: SysFn) -> u64 {
    SYSFN_ADDRESS_BASE + 0x100 * ALL.iter().position(|g| *g == f).unwrap_or(0) as u64
}

/// See [`address_of`].
pub const SYSFN_ADDRESS_BASE: u64 = 0x7fb0_5f00_0000;

/// Bytes of the device heap.
pub const HEAP_BYTES: u64 = 8 << 20;
/// The heap's allocation in global memory.
pub const HEAP_NAME: &str = "@heap";
/// The alignment (and granularity) of heap blocks.
const HEAP_ALIGN: u64 = 16;

/// Why a system function stopped the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SysError {
    /// `__assertfail` was called.
    Assertion {
        /// The failed expression's text.
        message: String,
        /// The source file.
        file: String,
        /// The source line.
        line: u32,
        /// The function.
        function: String,
    },
    /// A memory access of the service faulted (a bad format or argument address).
    Fault(Fault),
    /// A call the service cannot perform (a bad `free`, a conversion it does not format).
    Invalid(String),
}

impl std::fmt::Display for SysError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SysError::Assertion { message, file, line, function } => {
                write!(f, "{file}:{line}: {function}: Assertion `{message}` failed.")
            }
            SysError::Fault(x) => write!(f, "memory fault in a system function: {x}"),
            SysError::Invalid(m) => write!(f, "system function: {m}"),
        }
    }
}

impl From<Fault> for SysError {
    fn from(f: Fault) -> SysError {
        SysError::Fault(f)
    }
}

/// The thread that calls: CTA and thread index (x, y, z).
pub type Caller = ([u32; 3], [u32; 3]);

/// The memory a service call sees: generic addresses resolved for the calling thread.
pub trait SysMemory {
    /// Loads `size` bytes at generic address `addr`.
    fn load(&mut self, addr: u64, size: u32) -> Result<u128, Fault>;
    /// Global memory (where the heap lives).
    fn global(&mut self) -> &mut GlobalMemory;
}

/// The per-launch state of the system functions: the printf records and the heap.
#[derive(Clone, Debug, Default)]
pub struct Services {
    records: Vec<(Caller, String)>,
    heap: Heap,
}

#[derive(Clone, Debug, Default)]
struct Heap {
    /// The heap's base address, once allocated.
    base: Option<u64>,
    /// Free blocks: offset → size.
    free: BTreeMap<u64, u64>,
    /// Live blocks: offset → size.
    live: BTreeMap<u64, u64>,
}

impl Services {
    /// Performs `f` with its argument words (`args[i]`: the i-th parameter, zero-extended)
    /// for `who`; returns the result (0 for functions without one).
    pub fn call(&mut self, f: SysFn, args: &[u64], who: Caller, mem: &mut dyn SysMemory) -> Result<u64, SysError> {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        match f {
            SysFn::Vprintf => {
                if arg(0) == 0 {
                    return Ok(u64::from((-1i32) as u32));
                }
                let fmt = read_string(mem, arg(0), None)?;
                let (text, n) = format(&fmt, arg(1), mem)?;
                self.records.push((who, text));
                Ok(u64::from(n as u32))
            }
            SysFn::Malloc => Ok(self.heap.malloc(arg(0), mem.global())),
            SysFn::Free => self.heap.free(arg(0)).map(|()| 0),
            SysFn::AssertFail => {
                let s = |m: &mut dyn SysMemory, a: u64| -> Result<String, SysError> {
                    if a == 0 { Ok(String::new()) } else { read_string(m, a, None).map(|b| lossy(&b)) }
                };
                Err(SysError::Assertion {
                    message: s(mem, arg(0))?,
                    file: s(mem, arg(1))?,
                    line: arg(2) as u32,
                    function: s(mem, arg(3))?,
                })
            }
        }
    }

    /// The printed text of the launch (see the module doc for the order).
    pub fn log(&self) -> String {
        let key = |c: &Caller| (c.0[2], c.0[1], c.0[0], c.1[2], c.1[1], c.1[0]);
        let mut r: Vec<&(Caller, String)> = self.records.iter().collect();
        r.sort_by_key(|(c, _)| key(c));
        r.into_iter().map(|(_, t)| t.as_str()).collect()
    }
}

impl Heap {
    fn malloc(&mut self, size: u64, g: &mut GlobalMemory) -> u64 {
        if size == 0 || size > HEAP_BYTES {
            return 0;
        }
        let base = *self.base.get_or_insert_with(|| g.append(HEAP_NAME, vec![0; HEAP_BYTES as usize]));
        if self.free.is_empty() && self.live.is_empty() {
            self.free.insert(0, HEAP_BYTES);
        }
        let need = size.next_multiple_of(HEAP_ALIGN);
        let Some((&off, &len)) = self.free.iter().find(|(_, l)| **l >= need) else { return 0 };
        self.free.remove(&off);
        if len > need {
            self.free.insert(off + need, len - need);
        }
        self.live.insert(off, need);
        base + off
    }

    fn free(&mut self, p: u64) -> Result<(), SysError> {
        if p == 0 {
            return Ok(());
        }
        let off = self.base.and_then(|b| p.checked_sub(b));
        let Some((off, len)) = off.and_then(|o| self.live.remove(&o).map(|l| (o, l))) else {
            return Err(SysError::Invalid(format!("free({p:#x}): not a block malloc returned")));
        };
        // Insert and merge with the neighbours.
        let (mut start, mut end) = (off, off + len);
        if let Some((&o, &l)) = self.free.range(..start).next_back()
            && o + l == start
        {
            self.free.remove(&o);
            start = o;
        }
        if let Some(l) = self.free.remove(&end) {
            end += l;
        }
        self.free.insert(start, end - start);
        Ok(())
    }
}

/// The NUL-terminated bytes at `a` (at most `max`, and at most 1 MiB).
fn read_string(mem: &mut dyn SysMemory, a: u64, max: Option<usize>) -> Result<Vec<u8>, SysError> {
    let mut out = Vec::new();
    let limit = max.unwrap_or(1 << 20);
    while out.len() < limit {
        let b = mem.load(a.wrapping_add(out.len() as u64), 1)? as u8;
        if b == 0 {
            break;
        }
        out.push(b);
    }
    Ok(out)
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One conversion specification.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
    long: bool,
    conv: u8,
}

/// Formats `fmt` with the packed arguments at `args`: the text and the number of arguments.
pub fn format(fmt: &[u8], args: u64, mem: &mut dyn SysMemory) -> Result<(String, i32), SysError> {
    let mut out = String::new();
    let mut off = 0u64;
    let mut n = 0i32;
    let mut i = 0;
    let mut lit = Vec::new();
    while i < fmt.len() {
        if fmt[i] != b'%' {
            lit.push(fmt[i]);
            i += 1;
            continue;
        }
        out.push_str(&lossy(&std::mem::take(&mut lit)));
        let start = i;
        let (s, next) = parse_spec(fmt, i + 1);
        i = next;
        if s.conv == b'%' {
            out.push('%');
            continue;
        }
        if s.conv == 0 {
            // A lone `%` at the end (or an unknown conversion): printed as written.
            out.push_str(&lossy(&fmt[start..i]));
            continue;
        }
        let size: u64 = match s.conv {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' if s.long => 8,
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => 4,
            _ => 8,
        };
        off = off.next_multiple_of(size);
        let v = mem.load(args.wrapping_add(off), size as u32)? as u64;
        off += size;
        n += 1;
        out.push_str(&convert(&s, v, mem)?);
    }
    out.push_str(&lossy(&lit));
    Ok((out, n))
}

/// Parses the specification after a `%` at `i`: the spec (`conv` 0 if malformed) and the
/// index after it.
fn parse_spec(f: &[u8], mut i: usize) -> (Spec, usize) {
    let mut s = Spec::default();
    while let Some(&c) = f.get(i) {
        match c {
            b'-' => s.left = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.alt = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    while let Some(c @ b'0'..=b'9') = f.get(i) {
        s.width = s.width.saturating_mul(10).saturating_add(usize::from(c - b'0'));
        i += 1;
    }
    if f.get(i) == Some(&b'.') {
        i += 1;
        let mut p = 0usize;
        while let Some(c @ b'0'..=b'9') = f.get(i) {
            p = p.saturating_mul(10).saturating_add(usize::from(c - b'0'));
            i += 1;
        }
        s.prec = Some(p);
    }
    while let Some(&c) = f.get(i) {
        match c {
            b'l' | b'z' | b'j' | b't' | b'q' => s.long = true,
            b'h' | b'L' => {}
            _ => break,
        }
        i += 1;
    }
    match f.get(i) {
        Some(&c) if b"diuoxXcspfFeEgGaA%".contains(&c) => {
            s.conv = c;
            (s, i + 1)
        }
        _ => (s, i),
    }
}

/// One converted argument, padded.
fn convert(s: &Spec, v: u64, mem: &mut dyn SysMemory) -> Result<String, SysError> {
    let (sign, body, numeric) = match s.conv {
        b'd' | b'i' => {
            let x = if s.long { v as i64 } else { i64::from(v as u32 as i32) };
            let digits = int_digits(x.unsigned_abs().to_string(), s.prec);
            (sign_of(x < 0, s), digits, true)
        }
        b'u' | b'o' | b'x' | b'X' => {
            let x = if s.long { v } else { u64::from(v as u32) };
            let mut d = match s.conv {
                b'u' => x.to_string(),
                b'o' => format!("{x:o}"),
                b'x' => format!("{x:x}"),
                _ => format!("{x:X}"),
            };
            d = int_digits(d, s.prec);
            if s.alt && x != 0 {
                match s.conv {
                    b'o' if !d.starts_with('0') => d.insert(0, '0'),
                    b'x' => d.insert_str(0, "0x"),
                    b'X' => d.insert_str(0, "0X"),
                    _ => {}
                }
            }
            (String::new(), d, true)
        }
        b'c' => (String::new(), lossy(&[v as u8]), false),
        b's' => {
            let t = if v == 0 { b"(null)".to_vec() } else { read_string(mem, v, s.prec)? };
            (String::new(), lossy(&t), false)
        }
        b'p' => (String::new(), if v == 0 { "(nil)".into() } else { format!("0x{v:x}") }, false),
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
            let x = f64::from_bits(v);
            (sign_of(x.is_sign_negative() && !x.is_nan(), s), float_body(s, x.abs()), x.is_finite())
        }
        c => return Err(SysError::Invalid(format!("printf conversion `%{}` is not supported yet", c as char))),
    };
    let len = sign.chars().count() + body.chars().count();
    let pad = s.width.saturating_sub(len);
    Ok(if s.left {
        format!("{sign}{body}{}", " ".repeat(pad))
    } else if s.zero && numeric && !(s.prec.is_some() && !b"fFeEgG".contains(&s.conv)) {
        // Zero padding goes after the sign and a `0x` prefix.
        let (pre, rest) = match body.get(..2) {
            Some("0x" | "0X") => body.split_at(2),
            _ => ("", body.as_str()),
        };
        format!("{sign}{pre}{}{rest}", "0".repeat(pad))
    } else {
        format!("{}{sign}{body}", " ".repeat(pad))
    })
}

fn sign_of(neg: bool, s: &Spec) -> String {
    if neg {
        "-".into()
    } else if s.plus {
        "+".into()
    } else if s.space {
        " ".into()
    } else {
        String::new()
    }
}

/// Integer digits with a precision (minimum digits; precision 0 and value 0 print nothing).
fn int_digits(d: String, prec: Option<usize>) -> String {
    match prec {
        Some(0) if d == "0" => String::new(),
        Some(p) if d.len() < p => format!("{}{d}", "0".repeat(p - d.len())),
        _ => d,
    }
}

/// A non-negative double as `%f`, `%e` or `%g` format it (no sign).
fn float_body(s: &Spec, x: f64) -> String {
    let upper = s.conv.is_ascii_uppercase();
    let up = |t: String| if upper { t.to_uppercase() } else { t };
    if x.is_nan() {
        return up("nan".into());
    }
    if x.is_infinite() {
        return up("inf".into());
    }
    let p = s.prec.unwrap_or(6);
    let point = |t: String| if s.alt && !t.contains('.') { t + "." } else { t };
    match s.conv.to_ascii_lowercase() {
        b'f' => point(format!("{x:.p$}")),
        b'e' => up(exp_form(x, p, s.alt)),
        _ => {
            let p = p.max(1);
            let e = exp10_after_rounding(x, p - 1);
            let t = if e < -4 || e >= p as i32 {
                exp_form(x, p - 1, s.alt)
            } else {
                let q = (p as i32 - 1 - e).max(0) as usize;
                point(format!("{x:.q$}"))
            };
            up(if s.alt { t } else { strip_zeros(t) })
        }
    }
}

/// `d.ddde±XX` with `p` digits after the point.
fn exp_form(x: f64, p: usize, alt: bool) -> String {
    let t = format!("{x:.p$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let m = if alt && !m.contains('.') { format!("{m}.") } else { m.to_string() };
    let mut out = String::new();
    let _ = write!(out, "{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.unsigned_abs());
    out
}

/// The decimal exponent of `x` once rounded to `p` digits after the first.
fn exp10_after_rounding(x: f64, p: usize) -> i32 {
    let t = format!("{x:.p$e}");
    t.split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0)
}

/// `%g` without `#`: trailing zeros of the fraction and a trailing point removed.
fn strip_zeros(t: String) -> String {
    let (m, e) = match t.find('e') {
        Some(i) => (t[..i].to_string(), t[i..].to_string()),
        None => (t.clone(), String::new()),
    };
    if !m.contains('.') {
        return t;
    }
    let m = m.trim_end_matches('0').trim_end_matches('.');
    format!("{m}{e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat memory: the format string and arguments at fixed addresses of one buffer.
    struct Flat(GlobalMemory);
    impl SysMemory for Flat {
        fn load(&mut self, addr: u64, size: u32) -> Result<u128, Fault> {
            self.0.load(addr, size)
        }
        fn global(&mut self) -> &mut GlobalMemory {
            &mut self.0
        }
    }

    fn fmt(f: &str, args: &[u8]) -> String {
        let mut bytes = f.as_bytes().to_vec();
        bytes.push(0);
        let at = 256;
        bytes.resize(at, 0);
        bytes.extend_from_slice(args);
        bytes.resize(bytes.len() + 16, 0);
        let g = GlobalMemory::from_buffers([("x".to_string(), bytes)]);
        let base = g.address_of("x").unwrap();
        let mut m = Flat(g);
        format(&read_string(&mut m, base, None).unwrap(), base + at as u64, &mut m).unwrap().0
    }

    /// The expected texts are glibc's `printf` output for the same values.
    #[test]
    fn conversions_match_c() {
        let mut a = Vec::new();
        a.extend_from_slice(&(-42i32).to_le_bytes());
        a.extend_from_slice(&[0; 4]);
        a.extend_from_slice(&1.5f64.to_bits().to_le_bytes());
        a.extend_from_slice(&0x1234_5678_9abc_def0u64.to_le_bytes());
        assert_eq!(fmt("a %d %f %llx %% z", &a), "a -42 1.500000 123456789abcdef0 % z");
        assert_eq!(
            fmt("[%5d|%-5d|%05d|%+d]", &[7, 0, 0, 0, 7, 0, 0, 0, 7, 0, 0, 0, 7, 0, 0, 0]),
            "[    7|7    |00007|+7]"
        );
        let g = |f: &str, x: f64| fmt(f, &x.to_bits().to_le_bytes());
        assert_eq!(g("%g", 100000.0), "100000");
        assert_eq!(g("%g", 1000000.0), "1e+06");
        assert_eq!(g("%g", 0.0001), "0.0001");
        assert_eq!(g("%g", 0.00001), "1e-05");
        assert_eq!(g("%e", 12345.678), "1.234568e+04");
        assert_eq!(g("%.3E", -0.0), "-0.000E+00");
        assert_eq!(g("%G", f64::NEG_INFINITY), "-INF");
        assert_eq!(g("%8.2f", 3.14159), "    3.14");
        assert_eq!(g("%g", 9.9999999), "10");
        assert_eq!(fmt("%x %X %#x %o", &[255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 8, 0, 0, 0]), "ff FF 0xff 10");
        assert_eq!(fmt("%.0d|%.3d", &[0, 0, 0, 0, 5, 0, 0, 0]), "|005");
    }

    #[test]
    fn heap_first_fit_and_exhaustion() {
        let mut g = GlobalMemory::from_buffers([("x".to_string(), vec![0; 16])]);
        let mut h = Heap::default();
        let a = h.malloc(10, &mut g);
        let b = h.malloc(100, &mut g);
        assert_eq!(a % 16, 0);
        assert_eq!(b, a + 16);
        assert!(g.store(b + 96, 4, 7).is_ok());
        h.free(a).unwrap();
        assert_eq!(h.malloc(16, &mut g), a);
        assert!(h.free(a + 1).is_err());
        assert_eq!(h.malloc(HEAP_BYTES, &mut g), 0);
        assert_eq!(h.malloc(0, &mut g), 0);
        h.free(a).unwrap();
        h.free(b).unwrap();
        assert_eq!(h.malloc(HEAP_BYTES, &mut g), a);
    }
}
