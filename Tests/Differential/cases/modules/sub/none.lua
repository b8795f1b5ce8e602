shared_flag = true
