import Bindings
import StackModel

print("stackplay-bench: nothing measured yet")
