//! What the repository's tests share with `cargo xtask` (its binary is the tools
//! themselves): the splicing of generated tables into Markdown documents, and counts
//! written as the documents quote them.

pub mod table_splice;
