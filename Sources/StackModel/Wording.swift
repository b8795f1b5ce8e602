// The words every layer shares (did-you-mean suggestions, numbers as people write them) live in
// Wording, below both the models and the Lua runtime; importing StackModel brings them along.
@_exported import Wording
