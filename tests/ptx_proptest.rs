//! Property tests of the PTX front end: generated syntax trees print and re-parse to themselves,
//! and random byte mutations of corpus files never panic the parser.

mod common;

use proptest::prelude::*;
use ptxas_rs::ptx::{self, ast::*};

const S: Span = Span { offset: 0, line: 0, column: 0 };

fn id(name: String) -> Ident {
    Ident { name, span: S }
}

fn ident() -> impl Strategy<Value = Ident> {
    prop_oneof!["[a-zA-Z][a-zA-Z0-9_$]{0,6}", "%[a-z][a-z0-9]{0,4}", "\\$L__[A-Z0-9_]{1,5}", "_[a-z0-9]{1,4}",]
        .prop_filter("reserved word", |s| s != "generic")
        .prop_map(id)
}

fn int_lit() -> impl Strategy<Value = IntLit> {
    prop_oneof![
        any::<u64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| format!("{v}U")),
        any::<u64>().prop_map(|v| format!("0x{v:X}")),
        any::<u32>().prop_map(|v| format!("0b{v:b}")),
        any::<u32>().prop_map(|v| format!("0{v:o}")),
        Just("0".to_string()),
        Just("18446744073709551615".to_string()),
        Just("0xFFFFFFFFFFFFFFFFU".to_string()),
        Just("123456789012345678901234567890".to_string()),
    ]
    .prop_map(|text| IntLit { text, span: S })
}

fn float_lit() -> impl Strategy<Value = FloatLit> {
    prop_oneof![
        any::<u32>().prop_map(|v| format!("0f{v:08X}")),
        any::<u64>().prop_map(|v| format!("0d{v:016X}")),
        (0u32..1000, 0u32..1000).prop_map(|(a, b)| format!("{a}.{b}")),
        Just(".5".to_string()),
        Just("1.".to_string()),
        Just("1e10".to_string()),
        Just("2.5E-3".to_string()),
        Just("0f7F800000".to_string()),
    ]
    .prop_map(|text| FloatLit { text, span: S })
}

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: S }
}

fn sym() -> impl Strategy<Value = Expr> {
    (ident(), proptest::option::of(prop_oneof![Just("x"), Just("y"), Just("z"), Just("w")]))
        .prop_map(|(n, c)| e(ExprKind::Sym(n, c.map(str::to_string))))
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        int_lit().prop_map(|i| e(ExprKind::Int(i))),
        float_lit().prop_map(|f| e(ExprKind::Float(f))),
        sym(),
        ident().prop_map(|n| e(ExprKind::Generic(n))),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (prop_oneof![Just(UnOp::Neg), Just(UnOp::Not), Just(UnOp::BitNot)], inner.clone())
                .prop_map(|(op, a)| e(ExprKind::Unary(op, Box::new(a)))),
            (proptest::sample::select(BinOp::ALL.to_vec()), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| e(ExprKind::Binary(op, Box::new(a), Box::new(b)))),
            (inner.clone(), inner.clone(), inner).prop_map(|(a, b, c)| e(ExprKind::Cond(
                Box::new(a),
                Box::new(b),
                Box::new(c)
            ))),
        ]
    })
}

/// A constant expression: no symbol but the constant `WARP_SZ` (ptxas's operand grammar names
/// symbols only at the top of an operand; see `op_expr` in grammar.pest).
fn const_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        4 => int_lit().prop_map(|i| e(ExprKind::Int(i))),
        2 => float_lit().prop_map(|f| e(ExprKind::Float(f))),
        1 => Just(e(ExprKind::Sym(id("WARP_SZ".to_string()), None))),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (prop_oneof![Just(UnOp::Neg), Just(UnOp::Not), Just(UnOp::BitNot)], inner.clone())
                .prop_map(|(op, a)| e(ExprKind::Unary(op, Box::new(a)))),
            (proptest::sample::select(BinOp::ALL.to_vec()), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| e(ExprKind::Binary(op, Box::new(a), Box::new(b)))),
            (inner.clone(), inner.clone(), inner).prop_map(|(a, b, c)| e(ExprKind::Cond(
                Box::new(a),
                Box::new(b),
                Box::new(c)
            ))),
        ]
    })
}

/// An instruction operand expression: a constant expression, or a symbol alone, after one `-`
/// or `!`, or before `+` and a constant expression.
fn operand_expr() -> impl Strategy<Value = Expr> {
    prop_oneof![
        3 => const_expr(),
        3 => sym(),
        1 => (prop_oneof![Just(UnOp::Neg), Just(UnOp::Not)], sym()).prop_map(|(op, a)| e(ExprKind::Unary(op, Box::new(a)))),
        1 => (sym(), const_expr()).prop_map(|(a, b)| e(ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)))),
    ]
}

/// A brace-list element: a symbol alone or a constant expression.
fn vec_elems() -> impl Strategy<Value = Vec<VecElem>> {
    prop::collection::vec(
        prop_oneof![Just(VecElem::Sink(S)), sym().prop_map(VecElem::Expr), const_expr().prop_map(VecElem::Expr)],
        1..5,
    )
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![
        4 => operand_expr().prop_map(Operand::Expr),
        1 => (sym(), sym()).prop_map(|(a, b)| Operand::Dual(VecElem::Expr(a), VecElem::Expr(b))),
        1 => vec_elems().prop_map(|v| Operand::Vector(v, S)),
        2 => prop::collection::vec(
            prop_oneof![
                (prop_oneof![sym(), int_lit().prop_map(|i| e(ExprKind::Int(i)))], proptest::option::of(expr()))
                    .prop_map(|(base, offset)| AddrElem::Term { base, offset }),
                vec_elems().prop_map(|v| AddrElem::Vector(v, S)),
            ],
            1..3
        )
        .prop_map(|v| Operand::Address(v, S)),
        1 => prop::collection::vec(prop_oneof![expr().prop_map(ListElem::Expr), vec_elems().prop_map(|v| ListElem::Vector(v, S))], 0..3)
            .prop_map(|v| Operand::List(v, S)),
        1 => (ident(), expr()).prop_map(|(n, x)| Operand::Indexed(n, x)),
        1 => Just(Operand::Sink(S)),
    ]
}

const MODS: &[&str] = &[
    ".u32",
    ".s64",
    ".f16x2",
    ".shared::cta",
    ".L2::cache_hint",
    ".v4",
    ".x4",
    ".m16n8k16",
    ".rn",
    ".sync",
    ".aligned",
    ".weak",
    ".global",
    ".mbarrier::complete_tx::bytes",
    ".2d",
];

fn instruction() -> impl Strategy<Value = Instruction> {
    (
        proptest::option::of((any::<bool>(), ident())),
        "[a-z][a-z0-9_]{0,7}",
        prop::collection::vec(proptest::sample::select(MODS), 0..4),
        prop::collection::vec(operand(), 0..5),
    )
        .prop_map(|(g, op, mods, operands)| Instruction {
            guard: g.map(|(negated, pred)| Guard { negated, pred }),
            opcode: id(op),
            modifiers: mods.into_iter().map(|m| Modifier { text: m.to_string(), span: S }).collect(),
            operands,
            span: S,
        })
}

/// Variable types the generator declares (ptxas has no `.bf16`/`.bf16x2`/`.tf32` variables: a syntax error).
const TYPES: &[&str] = &[
    ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u32", ".s16", ".f16", ".f16x2", ".f32", ".f64", ".pred",
    ".texref", ".e4m3",
];
const SPACES: &[&str] = &[".reg", ".const", ".global", ".local", ".param", ".shared", ".shared::cta", ".tex"];

fn decl_attr() -> impl Strategy<Value = DeclAttr> {
    prop_oneof![
        int_lit().prop_map(DeclAttr::Align),
        prop_oneof![Just(2u8), Just(4), Just(8)].prop_map(DeclAttr::Vector),
        (proptest::option::of(proptest::sample::select(&[".global", ".shared", ".const", ".local"][..])), int_lit())
            // `.ptr` without its own `.align` before a separate `.align N` prints the same as
            // `.ptr .align N`: the parser reads the latter, so generate only that.
            .prop_map(|(s, align)| DeclAttr::Ptr { space: s.map(str::to_string), align: Some(align) }),
        prop::collection::vec(proptest::sample::select(&[".managed", ".unified"][..]), 1..3)
            .prop_map(|v| DeclAttr::Attribute(v.into_iter().map(str::to_string).collect())),
    ]
}

fn initializer() -> impl Strategy<Value = Initializer> {
    let leaf =
        prop_oneof![expr().prop_map(Initializer::Expr), (ident(), expr()).prop_map(|(n, x)| Initializer::Field(n, x))];
    leaf.prop_recursive(3, 16, 4, |inner| prop::collection::vec(inner, 0..4).prop_map(|v| Initializer::List(v, S)))
        .prop_filter("a field only inside braces", |i| !matches!(i, Initializer::Field(..)))
}

fn declarator() -> impl Strategy<Value = Declarator> {
    (
        ident(),
        prop_oneof![
            Just(Shape::Scalar),
            int_lit().prop_map(Shape::Range),
            prop::collection::vec(proptest::option::of(expr()), 1..3).prop_map(Shape::Array),
        ],
        proptest::option::of(initializer()),
    )
        .prop_map(|(name, shape, init)| Declarator { name, shape, init })
}

fn linkage() -> impl Strategy<Value = Vec<Linkage>> {
    prop::collection::vec(
        prop_oneof![Just(Linkage::Visible), Just(Linkage::Extern), Just(Linkage::Weak), Just(Linkage::Common)],
        0..2,
    )
}

fn var_decl() -> impl Strategy<Value = VarDecl> {
    (
        linkage(),
        proptest::sample::select(SPACES),
        prop::collection::vec(decl_attr(), 0..3),
        proptest::sample::select(TYPES),
        prop::collection::vec(declarator(), 1..3),
    )
        .prop_map(|(linkage, sp, pre, ty, decls)| VarDecl {
            linkage,
            space: StateSpace { text: sp.to_string() },
            pre,
            ty: Type { text: ty.to_string() },
            post: vec![],
            decls,
            span: S,
        })
}

fn param() -> impl Strategy<Value = Param> {
    (
        prop_oneof![Just(".param"), Just(".reg")],
        prop::collection::vec(decl_attr(), 0..2),
        proptest::sample::select(TYPES),
        ident(),
    )
        .prop_map(|(sp, pre, ty, name)| Param {
            space: StateSpace { text: sp.to_string() },
            pre,
            ty: Type { text: ty.to_string() },
            post: vec![],
            decl: Declarator { name, shape: Shape::Scalar, init: None },
            span: S,
        })
}

fn statement() -> impl Strategy<Value = Statement> {
    let leaf = prop_oneof![
        6 => instruction().prop_map(Statement::Instruction),
        2 => ident().prop_map(Statement::Label),
        2 => var_decl().prop_map(Statement::Var),
        1 => prop::collection::vec("\"[a-z ]{0,8}\"", 1..3).prop_map(|strings| Statement::Pragma(Pragma { strings, span: S })),
        1 => (int_lit(), int_lit(), int_lit(), proptest::option::of((ident(), proptest::option::of(int_lit()))))
            .prop_map(|(file, line, column, f)| Statement::Loc(Loc { file, line, column, attrs: f.map(|(n, o)| LocAttr::FunctionName(n, o)).into_iter().collect(), span: S })),
        1 => prop::collection::vec(ident(), 1..4).prop_map(|v| Statement::CallTargets(v, S)),
        1 => prop::collection::vec(ident(), 1..4).prop_map(|v| Statement::BranchTargets(v, S)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| prop::collection::vec(inner, 0..4).prop_map(|v| Statement::Block(v, S)))
}

fn function() -> impl Strategy<Value = Function> {
    (
        any::<bool>(),
        prop::collection::vec(prop_oneof![Just(Linkage::Visible), Just(Linkage::Extern), Just(Linkage::Weak)], 0..2),
        proptest::option::of(prop::collection::vec(param(), 0..2)),
        ident(),
        proptest::option::of(prop::collection::vec(param(), 0..3)),
        prop::collection::vec(int_lit(), 1..4),
        proptest::option::of(prop::collection::vec(statement(), 0..6)),
    )
        .prop_map(|(entry, linkage, rets, name, params, dims, body)| {
            let (kind, returns, directives) = if entry {
                (
                    FunctionKind::Entry,
                    None,
                    vec![
                        FuncDirective::MaxNTid(dims.clone()),
                        FuncDirective::MinNCtaPerSm(dims[0].clone()),
                        FuncDirective::ExplicitCluster,
                    ],
                )
            } else {
                (FunctionKind::Func, rets, vec![FuncDirective::NoReturn, FuncDirective::AbiPreserve(dims[0].clone())])
            };
            Function { linkage, kind, returns, name, params, directives, body, span: S }
        })
}

fn module() -> impl Strategy<Value = Module> {
    (
        prop::collection::vec(proptest::sample::select(&["sm_90a", "sm_75", "compute_80", "texmode_independent", "debug", "sm_100f"][..]), 1..3),
        proptest::option::of(int_lit()),
        prop::collection::vec(
            prop_oneof![
                3 => function().prop_map(Item::Function),
                2 => var_decl().prop_filter("no .reg at module scope in this generator", |_| true).prop_map(Item::Var),
                1 => (ident(), ident()).prop_map(|(a, b)| Item::Alias(Alias { alias: a, aliasee: b, span: S })),
                1 => (int_lit(), "\"[a-z/.]{1,8}\"", prop::collection::vec(int_lit(), 0..2)).prop_map(|(index, name, extra)| Item::File(FileDir { index, name, extra, span: S })),
            ],
            0..5,
        ),
    )
        .prop_map(|(targets, address_size, items)| Module {
            version: Version { major: "9".into(), minor: "0".into(), span: S },
            target: Target { names: targets.into_iter().map(|t| id(t.to_string())).collect(), span: S },
            address_size,
            items,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn ptx_generated_modules_roundtrip(m in module()) {
        let printed = ptx::print(&m);
        let back = ptx::parse(&printed, "gen.ptx").map_err(|d| TestCaseError::fail(format!("{d}\n{printed}")))?;
        prop_assert!(back == m, "re-parse differs:\n{}", printed);
        prop_assert_eq!(ptx::print(&back), printed);
    }

    #[test]
    fn ptx_mutated_corpus_never_panics(idx in 0usize..1000, edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..8)) {
        let files = corpus_files();
        let mut bytes = std::fs::read(&files[idx % files.len()]).unwrap();
        for (at, b, kind) in edits {
            let at = at % (bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = b,
                1 if at < bytes.len() => { bytes.remove(at); }
                _ => bytes.insert(at, b),
            }
        }
        ptxas_rs::fuzzing::ptx_parse(&bytes);
    }
}

fn corpus_files() -> &'static [std::path::PathBuf] {
    static FILES: std::sync::OnceLock<Vec<std::path::PathBuf>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        // The hand-written files and one arch of each kernel keep the inputs small and varied.
        let mut v: Vec<_> = common::corpus_ptx()
            .into_iter()
            .filter(|c| c.arch == "sm_90" || c.path.starts_with(common::corpus_dir().join("ptx")))
            .map(|c| c.path)
            .collect();
        v.extend(common::error_corpus());
        v
    })
}

#[test]
fn ptx_deep_nesting_is_bounded() {
    let hdr = ".version 9.0\n.target sm_90\n.entry k()\n{\n";
    // ptxas 13.0.88 accepts 1,663 nested scopes inside a kernel body and rejects 1,664.
    let ok = format!("{hdr}{}ret;{}\n}}\n", "{".repeat(1663), "}".repeat(1663));
    let m = ptx::parse(&ok, "deep.ptx").expect("1,663 nested scopes parse");
    assert_eq!(ptx::parse(&ptx::print(&m), "p.ptx").unwrap(), m);
    let over = format!("{hdr}{}ret;{}\n}}\n", "{".repeat(1664), "}".repeat(1664));
    assert!(ptx::parse(&over, "deep.ptx").unwrap_err().to_string().ends_with("memory exhausted"));
    // The deepest braces and the deepest parentheses at once still fit the parser's stack.
    let both = format!(
        "{hdr}{}mov.u32 %r1, {}1{};{}\n}}\n",
        "{".repeat(1663),
        "(".repeat(999),
        ")".repeat(999),
        "}".repeat(1663)
    );
    assert!(ptx::parse(&both, "both.ptx").is_ok());
    let bad = format!("{hdr}{}ret;{}\n}}\n", "{".repeat(5000), "}".repeat(5000));
    let d = ptx::parse(&bad, "deep.ptx").unwrap_err().to_string();
    assert!(d.ends_with("memory exhausted"), "{d}");
    let long = format!("{hdr}mov.u32 %r1, {}1;\n}}\n", "1+".repeat(5000));
    assert!(ptx::parse(&long, "long.ptx").unwrap_err().to_string().ends_with("memory exhausted"));
    let parens = format!("{hdr}mov.u32 %r1, {}1{};\n}}\n", "(".repeat(800), ")".repeat(800));
    assert!(ptx::parse(&parens, "parens.ptx").is_ok());
    let huge = format!("{hdr}mov.u32 %r1, {};\n}}\n", "9".repeat(1 << 20));
    assert!(ptx::parse(&huge, "huge.ptx").is_ok());
}
