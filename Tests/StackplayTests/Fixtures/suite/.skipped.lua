error("dotfiles never run")
