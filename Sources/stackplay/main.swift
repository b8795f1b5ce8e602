// stackplay [options] FILE|DIR ...: runs the tests of Lua scenario scripts, each in its own
// sandbox. Everything it does is the StackplayRunner library; this only hands it the arguments.
import StackplayRunner

#if canImport(Glibc)
    import Glibc
#endif

exit(StackplayCommand.run(Array(CommandLine.arguments.dropFirst())))
