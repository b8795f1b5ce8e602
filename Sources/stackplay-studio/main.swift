// stackplay-studio [--port N] [--address ADDR] [FILE|DIR ...]: the studio's server, which
// `stackplay studio` starts (docs/studio.md). Everything it does is the Studio library.
import Studio

#if canImport(Glibc)
    import Glibc
#endif

exit(StudioCommand.run(Array(CommandLine.arguments.dropFirst())))
