import Input
