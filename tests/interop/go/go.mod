module hadooprecord.test/gopeer

go 1.21

require (
	github.com/golang/snappy v1.0.0
	github.com/mesos/mesos-go v0.0.11
)
