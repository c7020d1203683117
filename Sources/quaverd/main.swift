print("quaverd")
