print("ouds-render")
