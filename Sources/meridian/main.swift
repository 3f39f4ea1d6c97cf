import MeridianApp
MeridianApp.main()
