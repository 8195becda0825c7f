//! The `chaos-outpost` program: the command line lives in `chaos_outpost::cli`, one file per
//! subcommand; this is only its entry point.

fn main() -> std::process::ExitCode {
    chaos_outpost::cli::main()
}
