// Keeps the CodegenTests target buildable on h37studio until h37loop's tests arrive; delete at that merge.
