from cardlab.cli import main

main()
