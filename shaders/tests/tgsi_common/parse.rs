//! A parser for TGSI text that accepts what virglrenderer's copy of Mesa's
//! `tgsi_text.c` accepts and rejects what it (or `tgsi_sanity`) rejects, for the
//! subset of TGSI a VirGL guest sends for GL 3.3-style vertex and fragment shaders
//! (docs/tgsi-text.md §1). Structure and messages follow `tgsi_text.c`:
//!
//! - the header (`VERT`, `FRAG`, ...) first; statements separated by whitespace, which
//!   is only space, tab and `\n` (a `\r` is a "Syntax error");
//! - a statement is `DCL ...`, `IMM[n] TYPE {a, b, c, d}`, `PROPERTY NAME VALUE`, an
//!   instruction, or a numeric label `N:` and an instruction;
//! - destination write masks list `x y z w` in order (`.yx` leaves `x` unparsed);
//!   source swizzles are absent or exactly four letters;
//! - immediates have exactly four values, in index order; a float is `0x` plus eight
//!   hex digits, or a decimal with a digit before or after the point (no `inf`/`nan`);
//!
//! and then the sanity rules: no declaration or immediate after the first
//! instruction, exactly one `END` and it is last, every register used is declared,
//! none is declared twice, IF/ELSE/ENDIF balance, a `TEX` sampler has a sampler view.

use std::fmt;

/// Register files (`tgsi_file_names`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    Const,
    In,
    Out,
    Temp,
    Samp,
    Addr,
    Imm,
    Sv,
    Image,
    Sview,
    Buffer,
    Memory,
    HwAtomic,
}

const FILES: [(&str, RegFile); 13] = [
    ("CONST", RegFile::Const),
    ("IN", RegFile::In),
    ("OUT", RegFile::Out),
    ("TEMP", RegFile::Temp),
    ("SAMP", RegFile::Samp),
    ("ADDR", RegFile::Addr),
    ("IMM", RegFile::Imm),
    ("SV", RegFile::Sv),
    ("IMAGE", RegFile::Image),
    ("SVIEW", RegFile::Sview),
    ("BUFFER", RegFile::Buffer),
    ("MEMORY", RegFile::Memory),
    ("HWATOMIC", RegFile::HwAtomic),
];

/// The shader stage named by the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Processor {
    Vertex,
    Fragment,
    Geometry,
    TessCtrl,
    TessEval,
    Compute,
}

/// A register reference: `FILE[index]` or `FILE[dim][index]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    pub file: RegFile,
    pub index: u32,
    pub dim: Option<u32>,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrcOp {
    pub reg: Reg,
    pub swizzle: [u8; 4],
    pub negate: bool,
    pub abs: bool,
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstOp {
    pub reg: Reg,
    /// Bit `i` = lane `i` written.
    pub mask: u8,
}

/// What the parser knows about an opcode (`tgsi_info_opcodes.h`).
#[derive(Debug, PartialEq, Eq)]
pub struct OpInfo {
    pub name: &'static str,
    pub num_dst: usize,
    pub num_src: usize,
    pub is_tex: bool,
    pub is_branch: bool,
}

const fn op(name: &'static str, num_dst: usize, num_src: usize) -> OpInfo {
    OpInfo {
        name,
        num_dst,
        num_src,
        is_tex: false,
        is_branch: false,
    }
}

/// A texture opcode: `dst, coord, SAMP[n], TARGET`.
const fn tex(name: &'static str) -> OpInfo {
    OpInfo {
        is_tex: true,
        ..op(name, 1, 2)
    }
}

/// A branch opcode, which may carry a `:label`.
const fn branch(name: &'static str, num_src: usize) -> OpInfo {
    OpInfo {
        is_branch: true,
        ..op(name, 0, num_src)
    }
}

/// The opcodes this parser knows: virglrenderer's table minus the ones a GL 3.3
/// vertex/fragment shader cannot use here. `TEX_LZ` is absent, as in virglrenderer.
pub static OPCODES: &[OpInfo] = &[
    op("ARL", 1, 1),
    op("MOV", 1, 1),
    op("LIT", 1, 1),
    op("RCP", 1, 1),
    op("RSQ", 1, 1),
    op("EXP", 1, 1),
    op("LOG", 1, 1),
    op("MUL", 1, 2),
    op("ADD", 1, 2),
    op("DP3", 1, 2),
    op("DP4", 1, 2),
    op("DST", 1, 2),
    op("MIN", 1, 2),
    op("MAX", 1, 2),
    op("SLT", 1, 2),
    op("SGE", 1, 2),
    op("MAD", 1, 3),
    op("SUB", 1, 2),
    op("LRP", 1, 3),
    op("FMA", 1, 3),
    op("SQRT", 1, 1),
    op("FRC", 1, 1),
    op("FLR", 1, 1),
    op("ROUND", 1, 1),
    op("EX2", 1, 1),
    op("LG2", 1, 1),
    op("POW", 1, 2),
    op("ABS", 1, 1),
    op("COS", 1, 1),
    op("DDX", 1, 1),
    op("DDY", 1, 1),
    op("KILL", 0, 0),
    op("SEQ", 1, 2),
    op("SGT", 1, 2),
    op("SIN", 1, 1),
    op("SLE", 1, 2),
    op("SNE", 1, 2),
    tex("TEX"),
    tex("TXB"),
    tex("TXL"),
    OpInfo {
        is_tex: true,
        ..op("TXD", 1, 4)
    },
    tex("TXQ"),
    tex("TXF"),
    OpInfo {
        is_tex: true,
        ..op("TXB2", 1, 3)
    },
    OpInfo {
        is_tex: true,
        ..op("TXL2", 1, 3)
    },
    op("DP2", 1, 2),
    op("TRUNC", 1, 1),
    op("CMP", 1, 3),
    op("KILL_IF", 0, 1),
    op("UADD", 1, 2),
    op("UMUL", 1, 2),
    op("IDIV", 1, 2),
    op("UDIV", 1, 2),
    op("MOD", 1, 2),
    op("UMOD", 1, 2),
    op("SHL", 1, 2),
    op("ISHR", 1, 2),
    op("USHR", 1, 2),
    op("AND", 1, 2),
    op("OR", 1, 2),
    op("XOR", 1, 2),
    op("IMIN", 1, 2),
    op("IMAX", 1, 2),
    op("UMIN", 1, 2),
    op("UMAX", 1, 2),
    op("ISLT", 1, 2),
    op("ISGE", 1, 2),
    op("USLT", 1, 2),
    op("USGE", 1, 2),
    op("USEQ", 1, 2),
    op("USNE", 1, 2),
    op("NOT", 1, 1),
    op("INEG", 1, 1),
    op("IABS", 1, 1),
    op("ISSG", 1, 1),
    op("I2F", 1, 1),
    op("U2F", 1, 1),
    op("F2I", 1, 1),
    op("F2U", 1, 1),
    op("DIV", 1, 2),
    branch("IF", 1),
    branch("ELSE", 0),
    op("ENDIF", 0, 0),
    op("NOP", 0, 0),
    op("END", 0, 0),
];

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub op: &'static OpInfo,
    pub saturate: bool,
    pub dst: Option<DstOp>,
    pub src: Vec<SrcOp>,
    pub target: Option<&'static str>,
    /// A texture instruction's texel offset, `, FILE[i].xyz` after the target
    /// (tgsi_text.c's `parse_texoffset_operand`: a register and an optional swizzle of
    /// exactly three letters), as a source whose `w` repeats `z`.
    pub tex_offset: Option<SrcOp>,
    pub label: Option<u32>,
}

/// One declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub file: RegFile,
    pub dim: Option<u32>,
    pub first: u32,
    pub last: u32,
    /// `(name, index)`, e.g. `("GENERIC", 3)`.
    pub semantic: Option<(&'static str, u32)>,
    pub interpolate: Option<&'static str>,
    pub location: Option<&'static str>,
    /// Sampler views: target and return types.
    pub sview: Option<(&'static str, Vec<&'static str>)>,
    pub local: bool,
}

/// A parsed and sanity-checked program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub processor: Processor,
    pub properties: Vec<(String, String)>,
    pub declarations: Vec<Declaration>,
    /// Raw 32-bit values, four per immediate.
    pub immediates: Vec<[u32; 4]>,
    pub instructions: Vec<Instruction>,
}

impl Program {
    /// The declaration covering `file[index]` (1-D, or 2-D with dimension `dim`).
    pub fn declaration(&self, file: RegFile, dim: Option<u32>, index: u32) -> Option<&Declaration> {
        self.declarations
            .iter()
            .find(|d| d.file == file && d.dim == dim && (d.first..=d.last).contains(&index))
    }
}

/// A parse or sanity error, with the byte offset and 1-based line where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

const SEMANTICS: &[&str] = &[
    "POSITION",
    "COLOR",
    "BCOLOR",
    "FOG",
    "PSIZE",
    "GENERIC",
    "NORMAL",
    "FACE",
    "EDGEFLAG",
    "PRIM_ID",
    "INSTANCEID",
    "VERTEXID",
    "STENCIL",
    "CLIPDIST",
    "CLIPVERTEX",
    "TEXCOORD",
    "PCOORD",
    "VIEWPORT_INDEX",
    "LAYER",
    "SAMPLEID",
    "SAMPLEPOS",
    "SAMPLEMASK",
];
const INTERPOLATIONS: &[&str] = &["CONSTANT", "LINEAR", "PERSPECTIVE", "COLOR"];
const LOCATIONS: &[&str] = &["CENTER", "CENTROID", "SAMPLE"];
const TEXTURES: &[&str] = &[
    "BUFFER",
    "1D",
    "2D",
    "3D",
    "CUBE",
    "RECT",
    "SHADOW1D",
    "SHADOW2D",
    "SHADOWRECT",
    "1D_ARRAY",
    "2D_ARRAY",
    "SHADOW1D_ARRAY",
    "SHADOW2D_ARRAY",
    "SHADOWCUBE",
    "2D_MSAA",
    "2D_ARRAY_MSAA",
    "CUBE_ARRAY",
    "SHADOWCUBE_ARRAY",
];
const RETURN_TYPES: &[&str] = &["UNORM", "SNORM", "SINT", "UINT", "FLOAT"];
const IMMEDIATE_TYPES: &[&str] = &["FLT32", "UINT32", "INT32", "FLT64", "UINT64", "INT64"];

fn is_white(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n'
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

type Result<T> = std::result::Result<T, ParseError>;

impl<'a> Parser<'a> {
    fn peek(&self) -> u8 {
        self.text.get(self.pos).copied().unwrap_or(0)
    }

    fn peek_at(&self, k: usize) -> u8 {
        self.text.get(self.pos + k).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn error<T>(&self, message: &str) -> Result<T> {
        let line = 1 + self.text[..self.pos.min(self.text.len())]
            .iter()
            .filter(|&&c| c == b'\n')
            .count();
        Err(ParseError {
            line,
            offset: self.pos,
            message: message.to_owned(),
        })
    }

    fn eat_opt_white(&mut self) {
        while is_white(self.peek()) {
            self.pos += 1;
        }
    }

    /// At least one whitespace character.
    fn eat_white(&mut self) -> bool {
        let start = self.pos;
        self.eat_opt_white();
        self.pos > start
    }

    /// Case-insensitive `word` not followed by a word character.
    fn match_whole(&mut self, word: &str) -> bool {
        let w = word.as_bytes();
        let end = self.pos + w.len();
        if end <= self.text.len()
            && self.text[self.pos..end].eq_ignore_ascii_case(w)
            && !is_word(self.text.get(end).copied().unwrap_or(0))
        {
            self.pos = end;
            true
        } else {
            false
        }
    }

    /// Case-insensitive prefix `word`.
    fn match_prefix(&mut self, word: &str) -> bool {
        let w = word.as_bytes();
        let end = self.pos + w.len();
        if end <= self.text.len() && self.text[self.pos..end].eq_ignore_ascii_case(w) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn match_one_of(&mut self, names: &[&'static str]) -> Option<&'static str> {
        names.iter().copied().find(|n| self.match_whole(n))
    }

    fn parse_uint(&mut self) -> Option<u32> {
        let start = self.pos;
        let mut v: u64 = 0;
        while self.peek().is_ascii_digit() {
            v = v * 10 + (self.peek() - b'0') as u64;
            if v > u32::MAX as u64 {
                self.pos = start;
                return None;
            }
            self.pos += 1;
        }
        (self.pos > start).then_some(v as u32)
    }

    fn expect(&mut self, c: u8, message: &str) -> Result<()> {
        if self.peek() == c {
            self.pos += 1;
            Ok(())
        } else {
            self.error(message)
        }
    }

    /// `FILE` then optional white then `[`.
    fn parse_file_bracket(&mut self) -> Result<RegFile> {
        let Some(file) = FILES
            .iter()
            .find(|(name, _)| self.match_whole(name))
            .map(|(_, f)| *f)
        else {
            return self.error("Unknown register file");
        };
        self.eat_opt_white();
        self.expect(b'[', "Expected `['")?;
        Ok(file)
    }

    /// `index]` (after `[`), or `first..last]` when `range`.
    fn parse_bracket(&mut self, range: bool) -> Result<(u32, u32)> {
        self.eat_opt_white();
        if self.match_whole("ADDR") || self.peek().is_ascii_alphabetic() {
            return self.error("Indirect addressing is not supported by this parser");
        }
        let Some(first) = self.parse_uint() else {
            return self.error("Expected literal unsigned integer");
        };
        self.eat_opt_white();
        let mut last = first;
        if range && self.peek() == b'.' && self.peek_at(1) == b'.' {
            self.pos += 2;
            self.eat_opt_white();
            let Some(l) = self.parse_uint() else {
                return self.error("Expected literal integer");
            };
            if l < first {
                return self.error("Last register index must not be lower than the first");
            }
            last = l;
            self.eat_opt_white();
        }
        self.expect(b']', "Expected `]'")?;
        Ok((first, last))
    }

    /// `FILE[i]` or `FILE[d][i]`.
    fn parse_register(&mut self, range: bool) -> Result<(RegFile, Option<u32>, u32, u32)> {
        let file = self.parse_file_bracket()?;
        let (f0, l0) = self.parse_bracket(range)?;
        let save = self.pos;
        self.eat_opt_white();
        if self.peek() == b'[' {
            self.pos += 1;
            if f0 != l0 {
                return self.error("A register dimension is a single index");
            }
            let (f1, l1) = self.parse_bracket(range)?;
            return Ok((file, Some(f0), f1, l1));
        }
        self.pos = save;
        Ok((file, None, f0, l0))
    }

    fn parse_dst(&mut self) -> Result<DstOp> {
        let (file, dim, index, _) = self.parse_register(false)?;
        let save = self.pos;
        self.eat_opt_white();
        let mut mask = 0b1111;
        if self.peek() == b'.' {
            self.pos += 1;
            self.eat_opt_white();
            mask = 0;
            for (bit, letter) in [b'X', b'Y', b'Z', b'W'].iter().enumerate() {
                if self.peek().to_ascii_uppercase() == *letter {
                    self.pos += 1;
                    mask |= 1 << bit;
                }
            }
            if mask == 0 {
                return self.error("Writemask expected");
            }
        } else {
            self.pos = save;
        }
        Ok(DstOp {
            reg: Reg { file, index, dim },
            mask,
        })
    }

    /// One swizzle letter (`x`, `y`, `z`, `w`, either case) into each lane of `lanes`,
    /// after the `.`.
    fn parse_swizzle_letters(&mut self, lanes: &mut [u8]) -> Result<()> {
        for lane in lanes {
            *lane = match self.peek().to_ascii_uppercase() {
                b'X' => 0,
                b'Y' => 1,
                b'Z' => 2,
                b'W' => 3,
                _ => {
                    return self.error("Expected register swizzle component `x', `y', `z' or `w'");
                }
            };
            self.pos += 1;
        }
        Ok(())
    }

    /// A texture offset operand: `FILE[i]` with an optional three-letter swizzle.
    fn parse_tex_offset(&mut self) -> Result<SrcOp> {
        let (file, dim, index, _) = self.parse_register(false)?;
        let save = self.pos;
        self.eat_opt_white();
        let mut swizzle = [0, 1, 2, 2];
        if self.peek() == b'.' {
            self.pos += 1;
            self.eat_opt_white();
            self.parse_swizzle_letters(&mut swizzle[..3])?;
            swizzle[3] = swizzle[2];
        } else {
            self.pos = save;
        }
        Ok(SrcOp {
            reg: Reg { file, index, dim },
            swizzle,
            negate: false,
            abs: false,
        })
    }

    fn parse_src(&mut self) -> Result<SrcOp> {
        let mut negate = false;
        let mut abs = false;
        if self.peek() == b'-' {
            self.pos += 1;
            self.eat_opt_white();
            negate = true;
        }
        if self.peek() == b'|' {
            self.pos += 1;
            self.eat_opt_white();
            abs = true;
        }
        let (file, dim, index, _) = self.parse_register(false)?;
        let save = self.pos;
        self.eat_opt_white();
        let mut swizzle = [0, 1, 2, 3];
        if self.peek() == b'.' {
            self.pos += 1;
            self.eat_opt_white();
            self.parse_swizzle_letters(&mut swizzle)?;
        } else {
            self.pos = save;
        }
        if abs {
            self.eat_opt_white();
            self.expect(b'|', "Expected `|'")?;
        }
        Ok(SrcOp {
            reg: Reg { file, index, dim },
            swizzle,
            negate,
            abs,
        })
    }

    fn parse_instruction(&mut self, has_label: bool) -> Result<Instruction> {
        self.eat_opt_white();
        let start = self.pos;
        let mut found = None;
        for info in OPCODES {
            self.pos = start;
            if self.match_whole(info.name) {
                found = Some((info, false));
            } else if self.match_prefix(info.name)
                && self.match_prefix("_SAT")
                && !is_word(self.peek())
            {
                found = Some((info, true));
            }
            if let Some((info, _)) = found {
                let operands = info.num_dst + info.num_src + usize::from(info.is_tex);
                if operands == 0 || self.at_end() || self.eat_white() {
                    break;
                }
                found = None;
            }
        }
        let Some((info, saturate)) = found else {
            self.pos = start;
            return self.error(if has_label {
                "Unknown opcode"
            } else {
                "Expected `DCL', `IMM' or a label"
            });
        };
        let mut inst = Instruction {
            op: info,
            saturate,
            dst: None,
            src: Vec::new(),
            target: None,
            tex_offset: None,
            label: None,
        };
        let operands = info.num_dst + info.num_src + usize::from(info.is_tex);
        for i in 0..operands {
            if i > 0 {
                self.eat_opt_white();
                self.expect(b',', "Expected `,'")?;
                self.eat_opt_white();
            }
            if i < info.num_dst {
                inst.dst = Some(self.parse_dst()?);
            } else if i < info.num_dst + info.num_src {
                let src = self.parse_src()?;
                inst.src.push(src);
            } else {
                let Some(target) = self.match_one_of(TEXTURES) else {
                    return self.error("Expected texture target");
                };
                inst.target = Some(target);
            }
        }
        if info.is_tex {
            let save = self.pos;
            self.eat_opt_white();
            if self.peek() == b',' {
                self.pos += 1;
                self.eat_opt_white();
                inst.tex_offset = Some(self.parse_tex_offset()?);
            } else {
                self.pos = save;
            }
        }
        let save = self.pos;
        self.eat_opt_white();
        if info.is_branch && self.peek() == b':' {
            self.pos += 1;
            self.eat_opt_white();
            let Some(label) = self.parse_uint() else {
                return self.error("Expected a label");
            };
            inst.label = Some(label);
        } else {
            self.pos = save;
        }
        Ok(inst)
    }

    fn parse_declaration(&mut self, processor: Processor) -> Result<Declaration> {
        if !self.eat_white() {
            return self.error("Syntax error");
        }
        let (file, dim, first, last) = self.parse_register(true)?;
        let mut decl = Declaration {
            file,
            dim,
            first,
            last,
            semantic: None,
            interpolate: None,
            location: None,
            sview: None,
            local: false,
        };
        let vs_input = processor == Processor::Vertex && file == RegFile::In;
        // Each `, ITEM` is consumed only when recognised; an unrecognised one is left
        // for the statement loop, which then fails ("Syntax error").
        let item = |p: &mut Parser<'a>, f: &mut dyn FnMut(&mut Parser<'a>) -> Result<bool>| {
            let save = p.pos;
            p.eat_opt_white();
            if p.peek() != b',' || vs_input {
                p.pos = save;
                return Ok(false);
            }
            p.pos += 1;
            p.eat_opt_white();
            if f(p)? {
                Ok(true)
            } else {
                p.pos = save;
                Ok(false)
            }
        };
        match file {
            RegFile::Sview => {
                let mut sview = None;
                item(self, &mut |p| {
                    let Some(target) = p.match_one_of(TEXTURES) else {
                        return p.error("Expected texture target");
                    };
                    p.eat_opt_white();
                    p.expect(b',', "Expected `,'")?;
                    p.eat_opt_white();
                    let mut types = Vec::new();
                    loop {
                        let Some(t) = p.match_one_of(RETURN_TYPES) else {
                            if types.is_empty() || types.len() > 2 {
                                return p.error("Expected type name");
                            }
                            break;
                        };
                        types.push(t);
                        if types.len() == 4 {
                            break;
                        }
                        let save = p.pos;
                        p.eat_opt_white();
                        if p.peek() == b',' {
                            p.pos += 1;
                            p.eat_opt_white();
                        } else {
                            p.pos = save;
                            break;
                        }
                    }
                    if types.len() != 1 && types.len() != 4 {
                        return p.error("Expected one or four return types");
                    }
                    sview = Some((target, types));
                    Ok(true)
                })?;
                decl.sview = sview;
            }
            RegFile::Temp => {
                decl.local = item(self, &mut |p| Ok(p.match_whole("LOCAL")))?;
            }
            RegFile::In | RegFile::Out => {
                let mut semantic = None;
                item(self, &mut |p| {
                    let Some(name) = p.match_one_of(SEMANTICS) else {
                        return Ok(false);
                    };
                    let save = p.pos;
                    p.eat_opt_white();
                    let mut index = 0;
                    if p.peek() == b'[' {
                        p.pos += 1;
                        p.eat_opt_white();
                        let Some(i) = p.parse_uint() else {
                            return p.error("Expected literal integer");
                        };
                        p.eat_opt_white();
                        p.expect(b']', "Expected `]'")?;
                        index = i;
                    } else {
                        p.pos = save;
                    }
                    semantic = Some((name, index));
                    Ok(true)
                })?;
                decl.semantic = semantic;
                let mut interpolate = None;
                item(self, &mut |p| {
                    interpolate = p.match_one_of(INTERPOLATIONS);
                    Ok(interpolate.is_some())
                })?;
                decl.interpolate = interpolate;
                let mut location = None;
                item(self, &mut |p| {
                    location = p.match_one_of(LOCATIONS);
                    Ok(location.is_some())
                })?;
                decl.location = location;
            }
            _ => {}
        }
        Ok(decl)
    }

    fn parse_float(&mut self) -> Result<u32> {
        if self.peek() == b'0' && self.peek_at(1) == b'x' {
            let digits = &self.text[self.pos + 2..];
            let n = digits.iter().take_while(|c| c.is_ascii_hexdigit()).count();
            if n != 8 {
                return self.error("A hex float must be `0x` and exactly eight hex digits");
            }
            let hex = std::str::from_utf8(&digits[..8]).expect("ASCII");
            self.pos += 10;
            return Ok(u32::from_str_radix(hex, 16).expect("eight hex digits"));
        }
        let start = self.pos;
        if matches!(self.peek(), b'-' | b'+') {
            self.pos += 1;
        }
        let int_start = self.pos;
        while self.peek().is_ascii_digit() {
            self.pos += 1;
        }
        let integral = self.pos > int_start;
        let mut fractional = false;
        if self.peek() == b'.' {
            self.pos += 1;
            let frac_start = self.pos;
            while self.peek().is_ascii_digit() {
                self.pos += 1;
            }
            fractional = self.pos > frac_start;
        }
        if !integral && !fractional {
            self.pos = start;
            return self.error("Expected immediate constant");
        }
        if self.peek().eq_ignore_ascii_case(&b'e') {
            self.pos += 1;
            if matches!(self.peek(), b'-' | b'+') {
                self.pos += 1;
            }
            let exp_start = self.pos;
            while self.peek().is_ascii_digit() {
                self.pos += 1;
            }
            if self.pos == exp_start {
                return self.error("Expected immediate constant");
            }
        }
        let text = std::str::from_utf8(&self.text[start..self.pos]).expect("ASCII");
        // atof gives a double, then the parser narrows it to float.
        let value: f64 = text.parse().map_err(|_| ParseError {
            line: 0,
            offset: start,
            message: "Expected immediate constant".into(),
        })?;
        Ok((value as f32).to_bits())
    }

    fn parse_immediate(&mut self, count: usize) -> Result<[u32; 4]> {
        if self.peek() == b'[' {
            self.pos += 1;
            self.eat_opt_white();
            let Some(index) = self.parse_uint() else {
                return self.error("Expected literal unsigned integer");
            };
            if index as usize != count {
                return self.error("Immediates must be sorted");
            }
            self.eat_opt_white();
            self.expect(b']', "Expected `]'")?;
        }
        if !self.eat_white() {
            return self.error("Syntax error");
        }
        let Some(ty) = self.match_one_of(IMMEDIATE_TYPES) else {
            return self.error("Expected immediate type");
        };
        self.eat_opt_white();
        self.expect(b'{', "Expected `{'")?;
        let mut values = [0u32; 4];
        for (i, value) in values.iter_mut().enumerate() {
            self.eat_opt_white();
            if i > 0 {
                self.expect(b',', "Expected `,'")?;
                self.eat_opt_white();
            }
            *value = match ty {
                "FLT32" => self.parse_float()?,
                "UINT32" | "INT32" => {
                    let negative = ty == "INT32" && self.peek() == b'-';
                    if negative {
                        self.pos += 1;
                    }
                    let Some(v) = self.parse_uint() else {
                        return self.error("Expected immediate constant");
                    };
                    if negative { v.wrapping_neg() } else { v }
                }
                _ => return self.error("64-bit immediates are not supported by this parser"),
            };
        }
        self.eat_opt_white();
        self.expect(b'}', "Expected `}'")?;
        Ok(values)
    }

    fn parse_property(&mut self) -> Result<(String, String)> {
        if !self.eat_white() {
            return self.error("Syntax error");
        }
        let start = self.pos;
        while is_word(self.peek()) {
            self.pos += 1;
        }
        if self.pos == start {
            return self.error("Syntax error");
        }
        let name = std::str::from_utf8(&self.text[start..self.pos])
            .expect("ASCII")
            .to_ascii_uppercase();
        self.eat_opt_white();
        let value = match name.as_str() {
            "FS_COORD_ORIGIN" => match self.match_one_of(&["UPPER_LEFT", "LOWER_LEFT"]) {
                Some(v) => v.to_owned(),
                None => {
                    return self.error(
                        "Unknown coord origin as property: must be UPPER_LEFT or LOWER_LEFT!",
                    );
                }
            },
            "FS_COORD_PIXEL_CENTER" => match self.match_one_of(&["HALF_INTEGER", "INTEGER"]) {
                Some(v) => v.to_owned(),
                None => return self.error("Unknown coord pixel center as property"),
            },
            "NEXT_SHADER" => {
                match self.match_one_of(&["VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG", "COMP"])
                {
                    Some(v) => v.to_owned(),
                    None => return self.error("Unknown next shader property value."),
                }
            }
            "FS_COLOR0_WRITES_ALL_CBUFS"
            | "FS_EARLY_DEPTH_STENCIL"
            | "FS_DEPTH_LAYOUT"
            | "VS_PROHIBIT_UCPS"
            | "VS_WINDOW_SPACE_POSITION"
            | "NUM_CLIPDIST_ENABLED"
            | "NUM_CULLDIST_ENABLED"
            | "LEGACY_MATH_RULES"
            | "MUL_ZERO_WINS" => match self.parse_uint() {
                Some(v) => v.to_string(),
                None => return self.error("Expected unsigned integer as property!"),
            },
            _ => return self.error(&format!("Unknown property : {name}")),
        };
        Ok((name, value))
    }

    fn parse_header(&mut self) -> Result<Processor> {
        for (name, p) in [
            ("VERT", Processor::Vertex),
            ("FRAG", Processor::Fragment),
            ("GEOM", Processor::Geometry),
            ("TESS_CTRL", Processor::TessCtrl),
            ("TESS_EVAL", Processor::TessEval),
            ("COMP", Processor::Compute),
        ] {
            if self.match_whole(name) {
                return Ok(p);
            }
        }
        self.error("Unknown header")
    }
}

/// Parse `text` and apply the sanity checks.
pub fn parse(text: &str) -> Result<Program> {
    let mut p = Parser {
        text: text.as_bytes(),
        pos: 0,
    };
    p.eat_opt_white();
    let processor = p.parse_header()?;
    let mut program = Program {
        processor,
        properties: Vec::new(),
        declarations: Vec::new(),
        immediates: Vec::new(),
        instructions: Vec::new(),
    };
    let mut positions = Vec::new();
    while !p.at_end() {
        if !p.eat_white() {
            return p.error("Syntax error");
        }
        if p.at_end() {
            break;
        }
        let start = p.pos;
        let label = p.parse_uint().is_some() && {
            p.eat_opt_white();
            p.peek() == b':'
        };
        if label {
            p.pos += 1;
            positions.push(p.pos);
            let inst = p.parse_instruction(true)?;
            program.instructions.push(inst);
            continue;
        }
        p.pos = start;
        let declaration_after_instruction = |p: &Parser, what: &str| {
            if program.instructions.is_empty() {
                Ok(())
            } else {
                p.error(&format!("Instruction expected but {what} found"))
            }
        };
        if p.match_whole("DCL") {
            declaration_after_instruction(&p, "declaration")?;
            let decl = p.parse_declaration(processor)?;
            program.declarations.push(decl);
        } else if p.match_whole("IMM") {
            declaration_after_instruction(&p, "immediate")?;
            let imm = p.parse_immediate(program.immediates.len())?;
            program.immediates.push(imm);
        } else if p.match_whole("PROPERTY") {
            declaration_after_instruction(&p, "property")?;
            let prop = p.parse_property()?;
            program.properties.push(prop);
        } else {
            positions.push(p.pos);
            let inst = p.parse_instruction(false)?;
            program.instructions.push(inst);
        }
    }
    sanity(&program).map_err(|(index, message)| {
        let offset = index
            .and_then(|i| positions.get(i).copied())
            .unwrap_or(text.len());
        ParseError {
            line: 1 + text.as_bytes()[..offset]
                .iter()
                .filter(|&&c| c == b'\n')
                .count(),
            offset,
            message,
        }
    })?;
    Ok(program)
}

/// `tgsi_sanity`'s rules (plus IF balance and sampler views for TEX), as
/// `(instruction index, message)`.
fn sanity(program: &Program) -> std::result::Result<(), (Option<usize>, String)> {
    let decls = &program.declarations;
    for (i, a) in decls.iter().enumerate() {
        for b in &decls[..i] {
            if a.file == b.file && a.dim == b.dim && a.first <= b.last && b.first <= a.last {
                return Err((
                    None,
                    format!(
                        "{:?}[{}]: The same register declared more than once",
                        a.file, a.first
                    ),
                ));
            }
        }
        match (program.processor, a.file) {
            (Processor::Fragment, RegFile::In) | (_, RegFile::Out) if a.semantic.is_none() => {
                return Err((None, format!("{:?}[{}] needs a semantic", a.file, a.first)));
            }
            _ => {}
        }
    }
    let ends: Vec<usize> = program
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, i)| i.op.name == "END")
        .map(|(n, _)| n)
        .collect();
    match ends.as_slice() {
        [] => return Err((None, "Missing END instruction".into())),
        [end] if *end + 1 == program.instructions.len() => {}
        [end] => return Err((Some(*end + 1), "Instruction after END".into())),
        [_, second, ..] => return Err((Some(*second), "Too many END instructions".into())),
    }
    let mut depth: Vec<bool> = Vec::new();
    for (n, inst) in program.instructions.iter().enumerate() {
        let fail = |m: String| Err((Some(n), m));
        match inst.op.name {
            "IF" => depth.push(false),
            "ELSE" => match depth.last_mut() {
                Some(seen) if !*seen => *seen = true,
                _ => return fail("ELSE without IF".into()),
            },
            "ENDIF" => {
                let closed = depth.pop();
                closed.ok_or((Some(n), "ENDIF without IF".to_owned()))?;
            }
            _ => {}
        }
        let regs = inst.dst.iter().map(|d| (d.reg, true));
        let srcs = inst.src.iter().chain(&inst.tex_offset);
        for (reg, is_dst) in regs.chain(srcs.map(|s| (s.reg, false))) {
            let declared = match reg.file {
                RegFile::Imm => {
                    reg.dim.is_none() && (reg.index as usize) < program.immediates.len()
                }
                file => program.declaration(file, reg.dim, reg.index).is_some(),
            };
            if !declared {
                return fail(format!("Undeclared {:?} register {}", reg.file, reg.index));
            }
            if is_dst && !matches!(reg.file, RegFile::Temp | RegFile::Out | RegFile::Addr) {
                return fail(format!("Cannot write to {:?} register", reg.file));
            }
        }
        if inst.op.is_tex {
            let samp = inst.src.last().expect("TEX has two sources").reg;
            if samp.file != RegFile::Samp {
                return fail("TEX expects a SAMP register".into());
            }
            if program
                .declaration(RegFile::Sview, None, samp.index)
                .is_none()
            {
                return fail(format!("SAMP[{}] has no sampler view", samp.index));
            }
        }
    }
    if !depth.is_empty() {
        return Err((None, "Unbalanced IF".into()));
    }
    Ok(())
}
