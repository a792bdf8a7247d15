//! `.note.nv.tkinfo`'s command-line string equals NVIDIA ptxas 13.0.88's for the same options
//! (oracle tier): the options ptxas-rs acts on, alone and combined, in several orders on the
//! command line (`-g`, which adds the input and output file names, is refused for now).

use oracle::tools_or_skip;
use ptxas_rs::cubin::Cubin;
use std::path::PathBuf;
use std::process::Command;

fn arguments_of(cubin: &[u8]) -> String {
    let c = Cubin::parse(cubin).expect("cubin parses");
    c.notes.iter().find_map(|n| n.tkinfo()).expect(".note.nv.tkinfo").arguments
}

#[test]
fn tkinfo_arguments_match_ptxas() {
    let Some(t) = tools_or_skip("tkinfo_arguments_match_ptxas") else { return };
    let dir = tempdir();
    let ptx = dir.join("k.ptx");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/ptx/atom_shared_ops/atom_shared_ops.ptx"),
        &ptx,
    )
    .expect("copy");
    let sets: &[&[&str]] = &[
        &[],
        &["-O3"],
        &["-O0"],
        &["--opt-level", "2"],
        &["-v"],
        &["--maxrregcount", "64", "-O2"],
        &["-O3", "--maxrregcount=40", "-v", "-Werror"],
        &["-w", "-O3"],
        &["--fmad=false"],
        &["--warn-on-spills", "-O3", "-v"],
        &["--minnctapersm", "2", "-O3", "-maxrregcount", "64"],
        &["--maxntid", "128", "-maxrregcount", "64"],
        &["-warn-lmem-usage", "-suppress-stack-size-warning", "-Ofc", "max"],
        &["-legacy-bar-warp-wide-behavior", "-w", "-suppress-async-bulk-multicast-advisory-warning", "--fmad=true"],
        &[
            "--warn-on-double-precision-use",
            "--compiler-stats=t,m",
            "--compiler-stats-file",
            "s.txt",
            "-legacy-bar-warp-wide-behavior",
        ],
    ];
    // (-g, -lineinfo and the others ptxas-rs refuses are not here: `cli::support`.)
    let mut bad = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let mut args: Vec<&str> = vec!["-arch", "sm_90"];
        args.extend_from_slice(set);
        let run = |tool: &std::path::Path, out: &str| -> Option<Vec<u8>> {
            let o = Command::new(tool).current_dir(&dir).args(&args).args(["k.ptx", "-o", out]).output().expect("runs");
            if !o.status.success() {
                eprintln!("{} {set:?}: {}", tool.display(), String::from_utf8_lossy(&o.stderr));
                return None;
            }
            Some(std::fs::read(dir.join(out)).expect("cubin written"))
        };
        let theirs = run(&t.ptxas(), &format!("t{i}.cubin")).expect("ptxas accepts every set");
        let ours = run(std::path::Path::new(env!("CARGO_BIN_EXE_ptxas-rs")), &format!("t{i}.cubin"))
            .expect("ptxas-rs accepts every set");
        let (a, b) = (arguments_of(&theirs), arguments_of(&ours));
        if a != b {
            bad.push(format!("{set:?}: ptxas {a:?}, ours {b:?}"));
        }
    }
    assert!(bad.is_empty(), "tkinfo arguments differ:\n{}", bad.join("\n"));
}

fn tempdir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxas-rs-tkinfo-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tempdir");
    d
}
