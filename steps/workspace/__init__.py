"""Where the user's project is: the git work tree vibflow serves."""
