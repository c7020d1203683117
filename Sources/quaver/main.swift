print("quaver")
