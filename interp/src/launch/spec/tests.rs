//! Parser tests: the contract's example, defaults, and one test per validation rule, each
//! checking the reported key.

use super::*;
use crate::launch::scalar::ParamSlot;

/// The example of `shared/notes/launch-spec.md`, verbatim.
const CONTRACT_EXAMPLE: &str = r#"
kernel = "saxpy"            # entry name in the module
grid = [4, 1, 1]            # CTAs; missing trailing dims default to 1
block = [128, 1, 1]         # threads per CTA
shared_bytes = 0            # dynamic shared memory (optional, default 0)
cluster = [1, 1, 1]         # optional, sm_90+

# Kernel parameters, in declaration order. Exactly one of `scalar` or `buffer` per entry.
[[param]]
scalar = { type = "u32", value = 512 }
[[param]]
scalar = { type = "f32", value = 2.5 }
[[param]]
buffer = "x"                # the parameter receives the device address of buffer x
[[param]]
buffer = "y"

[buffer.x]
type = "f32"                # u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64 b8 b16 b32 b64
len = 512                   # elements
init = { random = { seed = 1, min = -10.0, max = 10.0 } }

[buffer.y]
type = "f32"
len = 512
init = { fill = 1.0 }
output = true               # written out after the run and compared
tolerance = { ulp = 2 }     # optional; default bit-exact. Also { abs = 1e-6 } or { rel = 1e-5 }
"#;

#[test]
fn contract_example() {
    let spec = LaunchSpec::from_toml_str(CONTRACT_EXAMPLE).unwrap();
    assert_eq!(spec.kernel, "saxpy");
    assert_eq!(spec.grid, [4, 1, 1]);
    assert_eq!(spec.block, [128, 1, 1]);
    assert_eq!(spec.shared_bytes, 0);
    assert_eq!(spec.cluster, Some([1, 1, 1]));
    assert_eq!(spec.total_threads(), 512);
    assert_eq!(spec.params.len(), 4);
    assert_eq!(spec.params[0], Param::Scalar(Scalar::new(ElemType::U32, Value::Int(512)).unwrap()));
    assert_eq!(spec.params[1].to_string(), "f32 2.5 (0x40200000)");
    assert_eq!(spec.params[2], Param::Buffer("x".into()));
    assert_eq!(spec.params[3], Param::Buffer("y".into()));
    let x = spec.buffer("x").unwrap();
    assert_eq!((x.ty(), x.len(), x.is_output()), (ElemType::F32, 512, false));
    assert_eq!(x.init(), &Init::Random { seed: 1, min: Some(Value::Float(-10.0)), max: Some(Value::Float(10.0)) });
    let y = spec.buffer("y").unwrap();
    assert!(y.is_output());
    assert_eq!(y.tolerance(), Tolerance::Ulp(2));
    assert_eq!(spec.outputs().map(BufferSpec::name).collect::<Vec<_>>(), ["y"]);
    let buffers = spec.generate_buffers();
    assert_eq!(buffers["x"].len(), 2048);
    assert_eq!(&buffers["y"][..4], &1.0f32.to_le_bytes());
    let layout = spec.param_layout();
    assert_eq!(layout.slots.iter().map(|s| s.offset).collect::<Vec<_>>(), [0, 4, 8, 16]);
    assert_eq!(layout.size, 24);
    assert_eq!(layout.slots[2], ParamSlot { offset: 8, size: 8, align: 8 });
}

#[test]
fn defaults() {
    let spec = LaunchSpec::from_toml_str(
        r#"
        kernel = "k"
        grid = [3]
        block = [32, 2]
        [[param]]
        buffer = "a"
        [buffer.a]
        type = "u64"
        len = 4
        "#,
    )
    .unwrap();
    assert_eq!(spec.grid, [3, 1, 1]);
    assert_eq!(spec.block, [32, 2, 1]);
    assert_eq!(spec.shared_bytes, 0);
    assert_eq!(spec.cluster, None);
    let a = spec.buffer("a").unwrap();
    assert_eq!(a.init(), &Init::default());
    assert!(!a.is_output());
    assert_eq!(a.tolerance(), Tolerance::Exact);
    assert_eq!(a.generate(), vec![0; 32]);
}

#[test]
fn extensions_parse() {
    let spec = LaunchSpec::from_toml_str(
        r#"
        kernel = "_k$1"
        grid = [2, 2]
        block = [1]
        cluster = [2]
        shared_bytes = 4096
        [[param]]
        scalar = { type = "bytes", value = "01 02 03 04 05 06 07 08 09 0a 0b 0c", align = 4 }
        [[param]]
        scalar = { type = "u64", value = "18446744073709551615" }
        [[param]]
        scalar = { type = "f32", value = "0x7fc00001" }
        [[param]]
        scalar = { type = "f16", value = -inf }
        [[param]]
        buffer = "o"
        [buffer.o]
        type = "bf16"
        len = 3
        init = { values = [1, 2.5, "0xffff"] }
        output = true
        tolerance = { rel = 1 }
        "#,
    )
    .unwrap();
    let Param::Scalar(s) = &spec.params[0] else { panic!() };
    assert_eq!((s.size(), s.align()), (12, 4));
    assert_eq!(spec.params[1].to_string(), "u64 18446744073709551615");
    let Param::Scalar(nan) = &spec.params[2] else { panic!() };
    assert_eq!(nan.bits(), Some(0x7fc0_0001));
    let Param::Scalar(inf) = &spec.params[3] else { panic!() };
    assert_eq!(inf.bytes(), &[0x00, 0xfc]);
    assert_eq!(spec.generate_buffers()["o"], [0x80, 0x3f, 0x20, 0x40, 0xff, 0xff]);
    assert_eq!(spec.buffer("o").unwrap().tolerance(), Tolerance::Rel(1.0));
    assert_eq!(spec.shared_bytes, 4096);
    assert_eq!(spec.cluster, Some([2, 1, 1]));
}

const BASE: &str = r#"
kernel = "k"
grid = [1]
block = [32]
"#;

/// Parses `BASE + extra` and returns the error's key and message.
fn error(extra: &str) -> (String, String) {
    let text = format!("{BASE}{extra}");
    match LaunchSpec::from_toml_str_named(&text, "t.run.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => (e.key().unwrap_or("").to_owned(), e.to_string()),
    }
}

fn assert_error(extra: &str, key: &str, needle: &str) {
    let (k, msg) = error(extra);
    assert_eq!(k, key, "{msg}");
    assert!(msg.starts_with(&format!("t.run.toml: {key}: ")), "{msg}");
    assert!(msg.contains(needle), "{msg:?} lacks {needle:?}");
}

const BUF: &str = "[buffer.a]\ntype = \"u32\"\nlen = 4\n";

#[test]
fn unknown_keys() {
    assert_error("threads = 5\n", "threads", "unknown key (expected one of: kernel, grid");
    assert_error(&format!("{BUF}tolerence = {{ ulp = 1 }}\n"), "buffer.a.tolerence", "unknown key");
    assert_error(&format!("[[param]]\nbuffer = \"a\"\nname = \"x\"\n{BUF}"), "param[0].name", "unknown key");
    assert_error(
        "[[param]]\nscalar = { type = \"u32\", value = 1, vaule = 2 }\n",
        "param[0].scalar.vaule",
        "unknown key",
    );
    assert_error(
        &format!("{BUF}init = {{ random = {{ seed = 1, mn = 0 }} }}\n"),
        "buffer.a.init.random.mn",
        "unknown key",
    );
    assert_error(
        &format!("{BUF}init = {{ constant = 1 }}\n"),
        "buffer.a.init.constant",
        "fill, ramp, values, random, edge",
    );
}

#[test]
fn missing_and_mistyped_keys() {
    let (k, msg) = match LaunchSpec::from_toml_str("grid = [1]\nblock = [1]\n") {
        Err(e) => (e.key().unwrap().to_owned(), e.to_string()),
        Ok(_) => panic!(),
    };
    assert_eq!(k, "kernel");
    assert_eq!(msg, "<launch spec>: kernel: missing required key");
    assert_error("[buffer.a]\ntype = \"u32\"\n", "buffer.a.len", "missing required key");
    assert_error("[buffer.a]\nlen = 4\n", "buffer.a.type", "missing required key");
    assert_error(&format!("{BUF}output = 1\n"), "buffer.a.output", "expected true or false, found integer");
    assert_error("[[param]]\nscalar = { type = \"u32\" }\n", "param[0].scalar.value", "missing");
    assert_error("[[param]]\nbuffer = 3\n", "param[0].buffer", "expected a buffer name");
    assert_error("param = 3\n", "param", "array of tables");
}

#[test]
fn bad_types() {
    assert_error("[buffer.a]\ntype = \"f128\"\nlen = 1\n", "buffer.a.type", "unknown type `f128`");
    assert_error("[buffer.a]\ntype = \"bytes\"\nlen = 1\n", "buffer.a.type", "unknown type `bytes`");
    assert_error("[[param]]\nscalar = { type = \"int\", value = 1 }\n", "param[0].scalar.type", "unknown type `int`");
}

#[test]
fn params() {
    assert_error("[[param]]\nbuffer = \"nope\"\n", "param[0].buffer", "buffer `nope` is not declared");
    assert_error(
        &format!("[[param]]\nbuffer = \"a\"\nscalar = {{ type = \"u32\", value = 1 }}\n{BUF}"),
        "param[0]",
        "found both",
    );
    assert_error(&format!("[[param]]\nbuffer = \"a\"\n[[param]]\n{BUF}"), "param[1]", "found neither");
    assert_error(
        "[[param]]\nscalar = { type = \"u8\", value = 256 }\n",
        "param[0].scalar.value",
        "out of range for u8 (0 ..= 255)",
    );
    assert_error(
        "[[param]]\nscalar = { type = \"s32\", value = 2147483648 }\n",
        "param[0].scalar.value",
        "out of range for s32",
    );
    assert_error("[[param]]\nscalar = { type = \"u32\", value = 1.5 }\n", "param[0].scalar.value", "not an integer");
    assert_error(
        "[[param]]\nscalar = { type = \"f16\", value = 1e5 }\n",
        "param[0].scalar.value",
        "rounds to infinity",
    );
    assert_error(
        "[[param]]\nscalar = { type = \"u32\", value = 1, align = 4 }\n",
        "param[0].scalar.align",
        "only to type = \"bytes\"",
    );
    assert_error("[[param]]\nscalar = { type = \"bytes\", value = \"abc\" }\n", "param[0].scalar.value", "even number");
    assert_error("[[param]]\nscalar = { type = \"bytes\", value = 12 }\n", "param[0].scalar.value", "hex string");
    assert_error(
        "[[param]]\nscalar = { type = \"bytes\", value = \"00\", align = 3 }\n",
        "param[0].scalar.align",
        "power of two",
    );
}

#[test]
fn buffers() {
    assert_error("[buffer.a]\ntype = \"u32\"\nlen = 0\n", "buffer.a.len", "out of range");
    assert_error("[buffer.a]\ntype = \"u32\"\nlen = -1\n", "buffer.a.len", "out of range");
    assert_error("[buffer.a]\ntype = \"u64\"\nlen = 1000000000\n", "buffer.a.len", "out of range");
    assert_error("[buffer.\"a b\"]\ntype = \"u32\"\nlen = 1\n", "buffer.a b", "buffer name");
    assert_error(&format!("{BUF}init = {{ fill = 1, values = [1] }}\n"), "buffer.a.init", "found fill, values");
    assert_error(&format!("{BUF}init = {{ fill = -1 }}\n"), "buffer.a.init.fill", "out of range for u32");
    assert_error(&format!("{BUF}init = {{ values = [] }}\n"), "buffer.a.init.values", "at least one");
    assert_error(&format!("{BUF}init = {{ random = {{ seed = -1 }} }}\n"), "buffer.a.init.random.seed", "out of range");
    assert_error(
        &format!("{BUF}init = {{ random = {{ seed = 1, min = 9, max = 3 }} }}\n"),
        "buffer.a.init.random",
        "above max",
    );
    assert_error(&format!("{BUF}init = {{ ramp = {{ start = 1 }} }}\n"), "buffer.a.init.ramp.step", "missing");
    assert_error(&format!("{BUF}tolerance = {{ ulp = 1 }}\n"), "buffer.a.tolerance", "only to float buffers");
    assert_error(
        "[buffer.a]\ntype = \"f32\"\nlen = 1\ntolerance = { ulp = 1, abs = 0.1 }\n",
        "buffer.a.tolerance",
        "exactly one of: ulp, abs, rel",
    );
    assert_error(
        "[buffer.a]\ntype = \"f32\"\nlen = 1\ntolerance = { abs = -0.1 }\n",
        "buffer.a.tolerance.abs",
        "finite number >= 0",
    );
    assert_error("[buffer.a]\ntype = \"f32\"\nlen = 1\ntolerance = {}\n", "buffer.a.tolerance", "found none");
}

#[test]
fn launch_shape() {
    let shape = |s: &str| {
        let text = format!("kernel = \"k\"\n{s}\n");
        LaunchSpec::from_toml_str(&text).unwrap_err()
    };
    let key = |s: &str| shape(s).key().unwrap().to_owned();
    assert_eq!(key("grid = []\nblock = [1]"), "grid");
    assert_eq!(key("grid = [1, 1, 1, 1]\nblock = [1]"), "grid");
    assert_eq!(key("grid = [0]\nblock = [1]"), "grid[0]");
    assert_eq!(key("grid = [1, 70000]\nblock = [1]"), "grid[1]");
    assert_eq!(key("grid = [1]\nblock = [2048]"), "block[0]");
    assert_eq!(key("grid = [1]\nblock = [1, 1, 65]"), "block[2]");
    assert_eq!(key("grid = [1]\nblock = [64, 32]"), "block");
    assert_eq!(key("grid = [1]\nblock = [1.0]"), "block[0]");
    assert_eq!(key("grid = [3]\nblock = [1]\ncluster = [2]"), "cluster");
    assert_eq!(key("grid = [1]\nblock = [1]\nshared_bytes = 4294967296"), "shared_bytes");
    // Issue 28: u32::MAX used to reach the interpreter and abort its allocation.
    let e = shape("grid = [1]\nblock = [1]\nshared_bytes = 4294967295");
    assert_eq!(e.key(), Some("shared_bytes"));
    assert!(e.to_string().contains("0 ..= 232448"), "{e}");
    assert_eq!(key("grid = [1]\nblock = [1]\nshared_bytes = 232449"), "shared_bytes");
    let ok = LaunchSpec::from_toml_str("kernel = \"k\"\ngrid = [1]\nblock = [1]\nshared_bytes = 232448\n").unwrap();
    assert_eq!(ok.shared_bytes, 232_448);
    assert_eq!(key("kernel2 = 1\ngrid = [1]\nblock = [1]"), "kernel2");
    let text = "kernel = \"9lives\"\ngrid = [1]\nblock = [1]\n";
    assert_eq!(LaunchSpec::from_toml_str(text).unwrap_err().key(), Some("kernel"));
}

#[test]
fn syntax_and_io_errors_name_the_file() {
    let e = LaunchSpec::from_toml_str_named("kernel = \n", "bad.run.toml").unwrap_err();
    assert!(matches!(e, SpecError::Toml { .. }));
    assert!(e.to_string().starts_with("bad.run.toml: not valid TOML: "), "{e}");
    let e = LaunchSpec::from_path(Path::new("/nonexistent/x.run.toml")).unwrap_err();
    assert!(e.to_string().starts_with("/nonexistent/x.run.toml: cannot read"), "{e}");
}

#[test]
fn from_path_names_the_file_in_errors() {
    let dir = std::env::temp_dir().join(format!("launch-spec-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.run.toml");
    std::fs::write(&path, format!("{BASE}[buffer.a]\ntype = \"u33\"\nlen = 1\n")).unwrap();
    let e = LaunchSpec::from_path(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        e.to_string(),
        format!("{}: buffer.a.type: unknown type `u33` (expected one of: {ELEM_TYPE_NAMES})", path.display())
    );
}

#[test]
fn constructors_validate() {
    assert!(BufferSpec::new("x", ElemType::U8, 0, Init::default()).is_err());
    assert!(BufferSpec::new("x/y", ElemType::U8, 1, Init::default()).is_err());
    let b = BufferSpec::new("x", ElemType::U8, 1, Init::default()).unwrap();
    let e = b.clone().with_tolerance(Tolerance::Abs(1.0)).unwrap_err();
    assert_eq!(e.key(), Some("buffer.x.tolerance"));
    let f = BufferSpec::new("f", ElemType::F32, 1, Init::default()).unwrap();
    assert!(f.clone().with_tolerance(Tolerance::Rel(f64::NAN)).is_err());
    assert!(f.with_tolerance(Tolerance::Ulp(4)).is_ok());
}
